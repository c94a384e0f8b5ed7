#!/usr/bin/python3
"""A GTK 4 window with one big button, for the plugin's tests.

app_id org.tactile.TestButton. Each click (a tap, on a touchscreen) counts: the button's
label and the window's title become "tapped N", so a test can wait for the title
(`titled app_id=org.tactile.TestButton tapped 1`) and see the label change in a capture.
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk  # noqa: E402

APP_ID = "org.tactile.TestButton"


def activate(app):
    window = Gtk.ApplicationWindow(application=app, title="not tapped")
    window.set_default_size(400, 300)
    button = Gtk.Button(label="Tap me")
    taps = 0

    def clicked(_button):
        nonlocal taps
        taps += 1
        button.set_label(f"tapped {taps}")
        window.set_title(f"tapped {taps}")
        print(f"tapped {taps}", flush=True)

    button.connect("clicked", clicked)
    window.set_child(button)
    window.present()


def main():
    # Without a session bus GTK names the window after the program: name the program itself.
    GLib.set_prgname(APP_ID)
    app = Gtk.Application(application_id=APP_ID)
    app.connect("activate", activate)
    return app.run(sys.argv[:1])


if __name__ == "__main__":
    sys.exit(main())
