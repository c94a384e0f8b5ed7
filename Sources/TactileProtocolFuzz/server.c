// The server under test: started by us (optionally under gdb), its output kept in a log
// file per instance, and probed after every fuzzing connection.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

enum { START_TIMEOUT_MS = 60000, DYING_TIMEOUT_MS = 30000, HANG_GRACE_MS = 10000 };

enum probe_result probe(const char *socket, int timeout_ms) {
    struct wl_display *display = wl_display_connect(socket);
    if (!display) return PROBE_DEAD;
    int answer = wire_roundtrip(display, timeout_ms);
    if (answer == 1) {
        // One frame later: work the server deferred to its frame timer (frame callbacks of
        // the connection that just closed) has run by now.
        sleep_ms(20);
        answer = wire_roundtrip(display, timeout_ms);
    }
    wl_display_disconnect(display);
    return answer == 1 ? PROBE_ALIVE : answer == 0 ? PROBE_DEAD : PROBE_HUNG;
}

static void exec_server(const struct server *server, int log) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); // never outlive the fuzzer
    // No terminal: gdb would otherwise try to hand it to the server, and stop (SIGTTOU)
    // when the fuzzer runs in a background process group, as under `swift test`.
    setsid();
    // A parent such as Foundation's Process (under `swift test`) may start us with signals
    // blocked, and exec keeps the mask: gdb would never hear of its inferior.
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, STDIN_FILENO);
    dup2(log, STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    // Swift's backtracer prints the crashing thread's stack: keep it short and plain.
    setenv("SWIFT_BACKTRACE", "enable=yes,interactive=no,color=no,registers=none,images=none,limit=48", 0);
    const char *exe = server->executable;
    // The screens sleep after a second without input, so fuzzed input also wakes them, and
    // the waking sequences go through the grab that swallows them. Every privileged family
    // is granted to everyone: the fuzzer's clients are no children of the server, and the
    // privileged protocols (capture, layer shell, session lock, …) are fuzzed too.
    char config[320];
    snprintf(config, sizeof config, "%s/fuzz.yaml", server->runtime_dir);
    FILE *file = fopen(config, "w");
    if (file) {
        fputs("idle:\n  timeout: 1\nprivileges:\n", file);
        static const char *const families[] = { "input-injection", "screen-capture", "window-management", "input-method",
                                                "layer-shell", "output-management", "session-lock", "clipboard-control",
                                                "touch-calibration", "security-context", "inspector" };
        for (size_t k = 0; k < sizeof families / sizeof families[0]; k++) fprintf(file, "  %s: everyone\n", families[k]);
        fclose(file);
    }
    if (server->under_gdb)
        execlp("gdb", "gdb", "-q", "-batch", "-ex", "set complaints 0", "-ex", "handle SIGPIPE nostop noprint pass",
               // The server's wl_shm catches SIGBUS from a client's truncated file: not a crash.
               "-ex", "handle SIGBUS nostop noprint pass", "-ex", "run", "-ex", "bt 40",
               "--args", exe, "serve", "--test-input", "--config", config, "--socket", server->socket, (char *)NULL);
    else
        execl(exe, exe, "serve", "--test-input", "--config", config, "--socket", server->socket, (char *)NULL);
    fprintf(stderr, "cannot run %s: %s\n", exe, strerror(errno));
    _exit(127);
}

bool server_start(struct server *server) {
    server->instance++;
    snprintf(server->log_path, sizeof server->log_path, "%s/server-%u.log", server->runtime_dir, server->instance);
    int log = open(server->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log < 0) return false;
    server->pid = fork();
    if (server->pid == 0) exec_server(server, log);
    close(log);
    if (server->pid < 0) return false;
    for (int64_t deadline = now_ms() + START_TIMEOUT_MS; now_ms() < deadline; sleep_ms(20)) {
        if (waitpid(server->pid, NULL, WNOHANG) == server->pid) {
            server->pid = 0;
            return false;
        }
        if (probe(server->socket, 2000) == PROBE_ALIVE) return true;
    }
    return false;
}

/// Waits up to timeout_ms for the server to exit; fills *status when it did.
static bool wait_exit(int pid, int timeout_ms, int *status) {
    for (int64_t deadline = now_ms() + timeout_ms; now_ms() < deadline; sleep_ms(50))
        if (waitpid(pid, status, WNOHANG) == pid) return true;
    return false;
}

/// The log's last 1 MiB, NUL-terminated; NULL when unreadable.
static char *read_log(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) return NULL;
    enum { LIMIT = 1 << 20 };
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    long start = length > LIMIT ? length - LIMIT : 0;
    fseek(file, start, SEEK_SET);
    char *text = malloc((size_t)(length - start) + 1);
    size_t n = text ? fread(text, 1, (size_t)(length - start), file) : 0;
    if (text) text[n] = 0;
    fclose(file);
    return text;
}

static void describe_exit(const struct server *server, int status, char *what, size_t size) {
    // gdb exits normally after printing the stack: the signal is in its output.
    char *log = server->under_gdb ? read_log(server->log_path) : NULL;
    const char *caught = log ? strstr(log, "Program received signal ") : NULL;
    if (caught) {
        caught += strlen("Program received signal ");
        snprintf(what, size, "crashed: %.*s (caught by gdb)", (int)strcspn(caught, ".\n"), caught);
    } else if (WIFSIGNALED(status)) {
        snprintf(what, size, "crashed: killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else {
        snprintf(what, size, "crashed: exited with status %d", WEXITSTATUS(status));
    }
    free(log);
}

/// Swift symbols in gdb's stack are mangled; swift-demangle (beside swift) rewrites the log
/// in place when it is there.
static void demangle_log(const struct server *server) {
    char command[800];
    snprintf(command, sizeof command,
             "command -v swift-demangle >/dev/null 2>&1 && swift-demangle --simplified < '%s' > '%s.tmp' 2>/dev/null && mv '%s.tmp' '%s'",
             server->log_path, server->log_path, server->log_path, server->log_path);
    if (system(command) != 0) {} // without it the stack stays mangled but complete
}

void server_reap(struct server *server, bool hung, char *what, size_t size) {
    int status = 0;
    // A crashing Swift process stops answering while its backtracer (or gdb) prints the
    // stack, which can take seconds; only a process that does not exit by itself is hung.
    if (wait_exit(server->pid, hung ? HANG_GRACE_MS : DYING_TIMEOUT_MS, &status)) {
        describe_exit(server, status, what, size);
    } else if (hung) {
        // gdb stops the server on SIGINT and prints its stack; Swift's backtracer on SIGABRT.
        kill(server->pid, server->under_gdb ? SIGINT : SIGABRT);
        if (!wait_exit(server->pid, DYING_TIMEOUT_MS, &status)) {
            kill(server->pid, SIGKILL);
            waitpid(server->pid, &status, 0);
        }
        snprintf(what, size, "hung: no answer to wl_display.sync within the probe's timeout");
    } else {
        kill(server->pid, SIGKILL);
        waitpid(server->pid, &status, 0);
        snprintf(what, size, "stopped answering (connection refused or closed) but did not exit");
    }
    server->pid = 0;
    demangle_log(server);
}

bool server_stop(struct server *server) {
    if (server->pid <= 0) return true;
    kill(server->pid, SIGTERM);
    int status;
    bool exited = wait_exit(server->pid, 5000, &status);
    if (!exited) {
        kill(server->pid, SIGKILL);
        waitpid(server->pid, &status, 0);
    }
    server->pid = 0;
    // Under gdb the status is gdb's, which SIGTERM kills with its inferior.
    return server->under_gdb || (exited && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

// ---- the crash report ---------------------------------------------------------------------

/// Where the crash report starts: Swift's fatal error or backtrace, gdb's signal, ASan.
static const char *report_start(const char *log) {
    static const char *const markers[] = { "Fatal error", "Program crashed", "Program received signal",
                                           "ERROR: AddressSanitizer", "runtime error:", "crashed:" };
    const char *first = NULL;
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        const char *found = strstr(log, markers[i]);
        if (found && (!first || found < first)) first = found;
    }
    if (!first) return NULL;
    while (first > log && first[-1] != '\n') first--;
    return first;
}

/// The start of the last `lines` lines.
static const char *tail(const char *log, int lines) {
    const char *p = log + strlen(log);
    if (p > log && p[-1] == '\n') p--;
    while (p > log && lines > 0)
        if (*--p == '\n') lines--;
    return p == log ? p : p + 1;
}

void server_print_log(const struct server *server) {
    char *log = read_log(server->log_path);
    if (!log) return;
    const char *start = report_start(log);
    printf("  --- server output (%s), %s ---\n", server->log_path, start ? "from the crash report" : "last lines");
    int budget = start ? 70 : 30;
    for (const char *line = start ? start : tail(log, budget); *line && budget > 0; budget--) {
        const char *end = strchr(line, '\n');
        int length = end ? (int)(end - line) : (int)strlen(line);
        if (strncmp(line, "Registers:", 10) == 0 || strncmp(line, "Images", 6) == 0) break;
        printf("  | %.*s\n", length, line);
        line += length + (end ? 1 : 0);
    }
    free(log);
}

/// The first stack frame in the project's own code: a line naming a file under Sources/
/// that is not a dependency's checkout under .build/. NULL when there is none.
static const char *first_own_frame(const char *report) {
    for (const char *line = report; *line;) {
        const char *end = strchrnul(line, '\n');
        const char *sources = strstr(line, "/Sources/");
        const char *build = strstr(line, "/.build");
        if (sources && sources < end && !(build && build < end)) return line;
        line = *end ? end + 1 : end;
    }
    return NULL;
}

/// A short name for the crash, to tell distinct crashes apart: the innermost frame in our
/// code as `function at Sources/…:line` (gdb's `#2  0x… in f (self=...) at /…/Sources/…`),
/// else the report's first line.
void server_crash_signature(const struct server *server, char *signature, size_t size) {
    snprintf(signature, size, "(no crash report in the server's output)");
    char *log = read_log(server->log_path);
    const char *start = log ? report_start(log) : NULL;
    const char *frame = start ? first_own_frame(start) : NULL;
    const char *line = frame ? frame : start;
    if (line) {
        int length = (int)(strchrnul(line, '\n') - line);
        const char *in = strstr(line, " in "), *at = strstr(line, " at "), *sources = strstr(line, "Sources/");
        if (frame && at && sources && sources < line + length) {
            // gdb's "#2  0x… in f (self=...) at …", or "#0  f (…) at …" at a line's start: the
            // function without its argument list, then the file from Sources/ on.
            const char *name = line;
            if (in && in < at) name = in + 4;
            else if (*line == '#') name = line + strcspn(line, " ") + strspn(line + strcspn(line, " "), " ");
            const char *name_end = at;
            if (name_end[-1] == ')')
                for (const char *p = at - 1; p > name; p--)
                    if (p[0] == ' ' && p[1] == '(') {
                        name_end = p;
                        break;
                    }
            snprintf(signature, size, "%.*s at %.*s", (int)(name_end - name), name, (int)(line + length - sources), sources);
        } else {
            snprintf(signature, size, "%.*s", length, line);
        }
    }
    free(log);
}

/// The server's own pid: under gdb, gdb's child.
static int server_process(const struct server *server) {
    if (!server->under_gdb) return server->pid;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", server->pid, server->pid);
    FILE *file = fopen(path, "r");
    int child = 0;
    if (file) {
        if (fscanf(file, "%d", &child) != 1) child = 0;
        fclose(file);
    }
    return child;
}

unsigned long server_rss_kb(const struct server *server) {
    int pid = server->pid > 0 ? server_process(server) : 0;
    if (pid <= 0) return 0;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *file = fopen(path, "r");
    if (!file) return 0;
    unsigned long kb = 0;
    while (fgets(line, sizeof line, file))
        if (sscanf(line, "VmRSS: %lu kB", &kb) == 1) break;
    fclose(file);
    return kb;
}
