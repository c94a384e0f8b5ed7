// What CSharedMemory.h declares. The guard works as libwayland's own wl_shm did: a SIGBUS
// handler, installed once per process, that looks for the faulting address among the
// mappings the faulting thread is reading and, finding it, maps anonymous zeroed memory over
// the whole mapping so the read goes on; any other SIGBUS is handed to whoever handled it
// before.
#define _GNU_SOURCE
#include "CSharedMemory.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t whole_pages(size_t length) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (length + page - 1) / page * page;
}

int tactile_shm_map(struct tactile_shm_mapping *mapping, int fd, size_t length) {
    memset(mapping, 0, sizeof *mapping);
    length = whole_pages(length);
    void *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) return errno;
    mapping->base = base;
    mapping->length = length;
    return 0;
}

int tactile_shm_grow(struct tactile_shm_mapping *mapping, size_t length) {
    length = whole_pages(length);
    if (length <= mapping->length) return 0;
    void *base = mremap(mapping->base, mapping->length, length, MREMAP_MAYMOVE);
    if (base == MAP_FAILED) return errno;
    mapping->base = base;
    mapping->length = length;
    return 0;
}

void tactile_shm_unmap(struct tactile_shm_mapping *mapping) {
    if (mapping->base) munmap(mapping->base, mapping->length);
    mapping->base = NULL;
    mapping->length = 0;
}

/// The mappings this thread is reading, innermost first. Touched outside the handler first
/// (in begin), so the handler never makes the thread's storage.
static _Thread_local struct tactile_shm_mapping *reading;
static struct sigaction previous;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_sigbus(int signal, siginfo_t *info, void *context) {
    (void)signal;
    (void)context;
    char *address = info->si_addr;
    for (struct tactile_shm_mapping *m = reading; m; m = m->next) {
        char *base = m->base;
        if (address < base || address >= base + m->length) continue;
        if (mmap(base, m->length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED) break;
        m->failed = 1;
        return;
    }
    // Not a client's file: the fault repeats on return, under the handler before ours (or
    // the default one, which ends the process as it would have without us).
    sigaction(SIGBUS, &previous, NULL);
}

static void install(void) {
    struct sigaction action = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

void tactile_shm_begin(struct tactile_shm_mapping *mapping) {
    pthread_once(&installed, install);
    if (mapping->readers++ > 0) return;
    mapping->next = reading;
    reading = mapping;
}

bool tactile_shm_end(struct tactile_shm_mapping *mapping) {
    if (mapping->readers == 0) return !mapping->failed;
    if (--mapping->readers == 0) {
        for (struct tactile_shm_mapping **link = &reading; *link; link = &(*link)->next) {
            if (*link != mapping) continue;
            *link = mapping->next;
            break;
        }
        mapping->next = NULL;
    }
    return !mapping->failed;
}
