// The fuzzer's PRNG: SplitMix64. Tiny, fast and good enough for choosing requests; what
// matters here is that a (seed, connection) pair always gives the same stream.
#include "fuzz.h"

uint64_t rng_next(struct rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct rng rng_for_connection(uint64_t seed, uint64_t index) {
    // Mix the seed first so that nearby seeds and nearby indices give unrelated streams.
    struct rng master = { seed };
    struct rng connection = { rng_next(&master) ^ (index * 0xD1B54A32D192ED03ULL) };
    rng_next(&connection);
    return connection;
}

uint32_t rng_below(struct rng *rng, uint32_t n) {
    // Multiply-shift: a tiny bias for huge n does not matter to a fuzzer.
    return (uint32_t)(((rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

bool rng_chance(struct rng *rng, uint32_t percent) {
    return rng_below(rng, 100) < percent;
}
