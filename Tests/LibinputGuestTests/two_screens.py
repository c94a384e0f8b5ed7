#!/usr/bin/python3
"""Tactile on two screens: runs inside the QEMU guest (scripts/guest/run), as root, with QEMU's
second display (`-device secondary-vga,id=second`, a second bochs-drm card).

`tactile serve --backend drm --kiosk` lights both cards' screens, Virtual-1 and Virtual-2 (at
1024x768, as the configuration file's outputs section asks; its EDID says a 1600x1200 screen
of 400x300 mm), and runs two weston-simple-touch, which kiosk placement puts one on each.
Four uinput touchscreens: one mapped to Virtual-2 by the configuration file, one by udev's
WL_OUTPUT property, one by its size (410x293 mm: Virtual-2's), and one without a size left to
the default, the first screen. Each taps; QEMU screendumps both
heads before and after. Before that, at start, the file's `touch.map: ask` has each screen
ask in turn to be touched (`tactile calibrate --map --if-guessed`, started by Tactile): the
plain touchscreen touches the first, a fifth ("wandering": no size, so on the first screen by
default, but lying on the second) the second, whose app its later tap reaches. Then the
second screen is unplugged (forced off through sysfs) and plugged back. Everything goes to OUTDIR, where TwoScreensGuestTests reads it.

Usage: two_screens.py OUTDIR TACTILE_EXECUTABLE
"""
import os
import subprocess
import sys
import time

from guest_input import Journal, Touchscreen, wait_for

OUT, TACTILE = sys.argv[1], sys.argv[2]

CONFIG = """\
touch:
  map: ask
devices:
  - match: Tactile Configured Touchscreen
    output: Virtual-2
outputs:
  - name: Virtual-2
    mode: 1024x768
"""
UDEV_RULE = 'SUBSYSTEM=="input", ATTRS{name}=="Tactile Udev Touchscreen", ENV{WL_OUTPUT}="Virtual-2"\n'

GREY, RED, WHITE = 0x585858, 0xFF0000, 0xFFFFFF  # simple-touch's window, its cross; a question

journal = Journal(OUT)
log, screendump_when = journal.log, journal.screendump_when


def tap(touchscreen, x, y):
    touchscreen.down(0, x, y); touchscreen.frame()
    touchscreen.up(0); touchscreen.frame()


def main():
    with open("/etc/udev/rules.d/70-tactile-wl-output.rules", "w") as f:
        f.write(UDEV_RULE)
    subprocess.run(["udevadm", "control", "--reload"], check=True)
    config = os.path.join(OUT, "tactile.yaml")
    with open(config, "w") as f:
        f.write(CONFIG)
    configured = Touchscreen("Tactile Configured Touchscreen")
    by_udev = Touchscreen("Tactile Udev Touchscreen")
    plain = Touchscreen("Tactile Plain Touchscreen")
    wandering = Touchscreen("Tactile Wandering Touchscreen")
    # 4095 units over 10 and 14 per mm: 410x293 mm, within Virtual-2's 400x300.
    sized = Touchscreen("Tactile Sized Touchscreen", resolution=(10, 14))
    subprocess.run(["udevadm", "settle"], check=True)
    log("touchscreens created")

    first, second = os.path.join(OUT, "first.log"), os.path.join(OUT, "second.log")
    # The second starts once the first has drawn, so kiosk placement gives it the second screen.
    clients = (f"WAYLAND_DEBUG=client weston-simple-touch 2>{first} & "
               f"until grep -q 'commit()' {first}; do sleep 0.1; done; "
               f"WAYLAND_DEBUG=client weston-simple-touch 2>{second} & wait")
    tactile_log = os.path.join(OUT, "tactile.log")
    with open(tactile_log, "w") as stream:
        tactile = subprocess.Popen([TACTILE, "serve", "--backend", "drm", "--kiosk", "--config", config,
                                    "--socket", "wayland-two", "--", "sh", "-c", clients],
                                   stdout=stream, stderr=subprocess.STDOUT)
    wait_for(tactile_log, "device added: Tactile Sized Touchscreen", timeout=120)

    # touch.map: ask: each screen in turn turns white (its corners) and is touched by the
    # touchscreen lying on it; the file gets their outputs.
    def asking(picture):
        return picture.colour(0, 0) == WHITE and picture.colour(picture.width - 1, picture.height - 1) == WHITE
    wait_for(tactile_log, "screen Virtual-1: touch it", timeout=120)
    screendump_when("map-first", asking)
    tap(plain, 1024, 1024)
    wait_for(tactile_log, "screen Virtual-2: touch it")
    screendump_when("map-second", asking, device="second")
    tap(wandering, 1024, 1024)
    wait_for(tactile_log, "written to ")
    log("mapped by touch")

    wait_for(second, "commit()", timeout=120)
    log("both clients drew")
    screendump_when("first-before", lambda p: p.colour(10, 10) == GREY)
    screendump_when("second-before", lambda p: p.colour(10, 10) == GREY, device="second")

    # Raw (1024, 1024) of 0...4095 is (256, 192) on the 1024x768 screen and (512, 2048) is
    # (128, 384); (1024, 2048) is (320, 400) on the 1280x800 one.
    tap(configured, 1024, 1024)
    wait_for(second, ".down(")
    tap(by_udev, 512, 2048)
    wait_for(second, ".down(", count=2)
    tap(plain, 1024, 2048)
    wait_for(first, ".down(")
    # Raw (2048, 2048) is (512, 384) on the second screen.
    tap(sized, 2048, 2048)
    wait_for(second, ".down(", count=3)
    log("taps delivered")
    screendump_when("first-after", lambda p: p.colour(320, 400) == RED)
    screendump_when("second-after", lambda p: p.colour(256, 192) == RED and p.colour(128, 384) == RED
                     and p.colour(512, 384) == RED, device="second")

    # Raw (2200, 512) is (550, 96) on the second screen, inside its app; on the first it
    # would be (687, 100), beside that one's.
    tap(wandering, 2200, 512)
    wait_for(second, ".down(", count=4)
    log("the wandering touchscreen reached the second app")

    # The second screen unplugged, as the kernel sees it (forced off through sysfs), and back.
    # Forcing sends no uevent of its own; the card's "change" uevent is what the kernel sends
    # when a cable is pulled.
    status = "/sys/class/drm/card1-Virtual-2/status"

    def hotplug():
        subprocess.run(["udevadm", "trigger", "--action=change", "/sys/class/drm/card1"], check=True)

    with open(status, "w") as f:
        f.write("off")
    hotplug()
    wait_for(tactile_log, "output Virtual-2 removed")
    log("second screen unplugged")
    # The second app, moved onto the first screen, over the first app.
    screendump_when("first-unplugged", lambda p: p.colour(256, 192) == RED and p.colour(128, 384) == RED)
    with open(status, "w") as f:
        f.write("detect")
    hotplug()
    wait_for(tactile_log, "output Virtual-2: ", count=2)
    log("second screen back")
    time.sleep(2)
    # What Tactile composes for the screen that came back, through screencopy.
    subprocess.run(["grim", "-t", "ppm", "-o", "Virtual-2", os.path.join(OUT, "grim-second-back.ppm")],
                   env=dict(os.environ, WAYLAND_DISPLAY="wayland-two"), check=True)

    tactile.terminate()
    tactile.wait(timeout=30)
    log("done")


if __name__ == "__main__":
    main()
