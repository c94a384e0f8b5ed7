// A client's wl_shm file as the server maps it, and the guard that makes reading it safe
// when the client shrinks the file underneath (the SIGBUS a read past its end raises).
//
// In C because the guard is a signal handler: it may only do what is async-signal-safe,
// which Swift code (its runtime, its allocations) cannot promise.
#ifndef TACTILE_CSHAREDMEMORY_H
#define TACTILE_CSHAREDMEMORY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct tactile_shm_mapping {
    /// Where the file lies in the server, and how many bytes of it (whole pages).
    void *base;
    size_t length;
    /// Reads begun and not yet ended on this thread (two buffers of one pool read at once).
    unsigned readers;
    /// Set by the guard: a read went past the file's end, and the mapping now holds zeros.
    volatile sig_atomic_t failed;
    /// The next mapping the thread is reading, while this one is read.
    struct tactile_shm_mapping *next;
};

/// Maps the first `length` bytes of `fd`, shared, readable and writable (captures write into
/// clients' buffers). Returns 0, or the errno of the failure.
int tactile_shm_map(struct tactile_shm_mapping *mapping, int fd, size_t length);

/// Maps more of the same file, moving the mapping if it must (nothing may be reading it).
/// Returns 0, or the errno of the failure (the mapping is then as it was).
int tactile_shm_grow(struct tactile_shm_mapping *mapping, size_t length);

void tactile_shm_unmap(struct tactile_shm_mapping *mapping);

/// Reads and writes of the mapping on this thread, until the matching end, are guarded: a
/// fault past the file's end fills the mapping with zeros instead of ending the process.
void tactile_shm_begin(struct tactile_shm_mapping *mapping);

/// Ends a guarded read; false when the file turned out shorter than the mapping.
bool tactile_shm_end(struct tactile_shm_mapping *mapping);

#endif
