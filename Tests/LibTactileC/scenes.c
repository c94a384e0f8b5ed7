/*
 * scenes: the hit-test benchmark scenes of SCENES.md (../shared/bench/SCENES.md, beside the checkout), rebuilt
 * from the specification in C and loaded into libtactile through its C API, so that the C
 * face's hit test can be checked against the reference checksums and timed against the
 * Swift call (Benchmarks/Responder) on identical work.
 *
 *   scenes check             all twelve scenes with the specification's M; one line each,
 *                            "LAYOUT N M CHECKSUM ok|MISMATCH"; exit 1 on any mismatch
 *   scenes check --short     the first 1,000 queries of each scene, answer by answer (node
 *                            and local coordinates) against a plain reverse walk over the
 *                            generated rectangles, and against the golden files
 *                            queries-LAYOUT-N.txt when they are there (SCENES_DIR, else
 *                            ../shared/bench/scenes): SCENES.md defines no short checksum
 *   scenes bench LAYOUT N    ns per query, median of 5 runs of M queries
 *   scenes route motion|tap  ns per routed touch motion or tap over flat-100 (scripts/libtactile-bench)
 *
 * The mapping to the scene mirrors Sources/BenchmarkScenes/BenchmarkScene+Build.swift: rects
 * are mapped client surfaces (input region: the whole surface, the default for a client
 * node), the root and the nested layout's trees are compositor nodes (client 0, empty input
 * region, never hit themselves, not clipping: a tree is 0x0 and its children lie outside it).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tactile/tactile.h>

enum { W = 3840, H = 2160, SHORT_QUERIES = 1000, BENCH_RUNS = 5 };

/* ---- The generator (SCENES.md, "Generator") ------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* r(n): one draw reduced mod n, n below 1 counting as 1. */
static int64_t draw(uint64_t *s, int64_t n)
{
    return (int64_t)(splitmix64(s) % (uint64_t)(n < 1 ? 1 : n));
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

enum layout { FLAT, OVERLAP, NESTED };
static const char *const layout_names[] = {"flat", "overlap", "nested"};

enum kind { ROOT, TREE, RECT };

/* A node as the specification lists it: x, y relative to the parent; ax, ay absolute (for
 * the reference walk). */
struct item {
    int id, parent;
    enum kind kind;
    int64_t x, y, w, h, ax, ay;
};

struct grid {
    int64_t cols, rows, cw, ch;
};

static struct grid make_grid(int64_t count)
{
    struct grid g;
    g.cols = 1;
    while (g.cols * g.cols * H < count * W) g.cols++;
    g.rows = (count + g.cols - 1) / g.cols;
    g.cw = W / g.cols;
    g.ch = H / g.rows;
    return g;
}

struct scene_items {
    struct item *items;
    int count;
};

static void push(struct scene_items *s, int parent, enum kind kind, int64_t x, int64_t y, int64_t w, int64_t h)
{
    struct item *it = &s->items[s->count];
    it->id = s->count;
    it->parent = parent;
    it->kind = kind;
    it->x = x;
    it->y = y;
    it->w = w;
    it->h = h;
    it->ax = parent < 0 ? x : s->items[parent].ax + x;
    it->ay = parent < 0 ? y : s->items[parent].ay + y;
    s->count++;
}

/* The nodes in creation (= stacking) order, root first; ids are indices. */
static struct scene_items generate(enum layout layout, int n)
{
    struct scene_items s = {calloc((size_t)n * 2 + 2, sizeof(struct item)), 0};
    if (!s.items) {
        perror("scenes");
        exit(2);
    }
    uint64_t rng = 1; /* the default seed */
    push(&s, -1, ROOT, 0, 0, W, H);
    if (layout == FLAT) {
        struct grid g = make_grid(n);
        int64_t mx = max64(1, g.cw / 8), my = max64(1, g.ch / 8);
        for (int i = 0; i < n; i++)
            push(&s, 0, RECT, (i % g.cols) * g.cw + mx, (i / g.cols) * g.ch + my, g.cw - 2 * mx, g.ch - 2 * my);
    } else if (layout == OVERLAP) {
        struct grid g = make_grid(n);
        for (int i = 0; i < n; i++) {
            /* Separate statements: the draws' order is part of the specification. */
            int64_t ox = draw(&rng, g.cw / 2 + 1) - g.cw / 4;
            int64_t oy = draw(&rng, g.ch / 2 + 1) - g.ch / 4;
            int64_t w = g.cw + g.cw / 2 + draw(&rng, g.cw / 2 + 1);
            int64_t h = g.ch + g.ch / 2 + draw(&rng, g.ch / 2 + 1);
            push(&s, 0, RECT, (i % g.cols) * g.cw + ox, (i / g.cols) * g.ch + oy, w, h);
        }
    } else {
        int toplevels = n / 10;
        struct grid g = make_grid(toplevels);
        for (int j = 0; j < toplevels; j++) {
            int64_t ww = min64(W, g.cw / 2 + draw(&rng, g.cw + 1));
            int64_t wh = min64(H, g.ch / 2 + draw(&rng, g.ch + 1));
            int64_t tx = draw(&rng, W - ww + 1);
            int64_t ty = draw(&rng, H - wh + 1);
            int tree = s.count;
            push(&s, 0, TREE, tx, ty, 0, 0);
            push(&s, tree, RECT, 0, 0, ww, wh);
            for (int c = 1; c <= 9; c++) {
                int64_t cw2 = max64(1, ww / 8 + draw(&rng, ww / 4 + 1));
                int64_t ch2 = max64(1, wh / 8 + draw(&rng, wh / 4 + 1));
                int64_t cx, cy;
                switch (c) {
                case 7: /* straddles the right edge */
                    cx = ww - cw2 / 2;
                    cy = draw(&rng, wh - ch2 + 1);
                    break;
                case 8: /* straddles the bottom edge */
                    cx = draw(&rng, ww - cw2 + 1);
                    cy = wh - ch2 / 2;
                    break;
                case 9: /* entirely outside, above-left */
                    cx = -cw2 - draw(&rng, 16);
                    cy = -ch2 - draw(&rng, 16);
                    break;
                default:
                    cx = draw(&rng, ww - cw2 + 1);
                    cy = draw(&rng, wh - ch2 + 1);
                }
                push(&s, tree, RECT, cx, cy, cw2, ch2);
            }
        }
    }
    return s;
}

/* The query stream: the same point for query i whatever M is. */
struct queries {
    uint64_t s;
};

static struct queries queries_start(void) { return (struct queries){1u ^ 0x9E6C63D0676A9A99u}; }

static void query_next(struct queries *q, double *x, double *y)
{
    int64_t qx = draw(&q->s, (int64_t)W * 4);
    int64_t qy = draw(&q->s, (int64_t)H * 4);
    *x = (double)qx / 4.0;
    *y = (double)qy / 4.0;
}

#define CHECKSUM_START 0xcbf29ce484222325u

static uint64_t fold(uint64_t h, int id)
{
    return (h ^ (uint32_t)(id + 1)) * 0x100000001b3u;
}

/* The table of SCENES.md: the expected output of a full run. */
static const struct {
    enum layout layout;
    int n, m;
    uint64_t checksum;
} reference[] = {
    {FLAT, 10, 1000000, 0x0322e24f0aa1269bu},    {FLAT, 100, 1000000, 0x7e50e5724a211542u},
    {FLAT, 1000, 1000000, 0x5aeda4dfd58d9949u},  {FLAT, 10000, 200000, 0x341c800d961b17a2u},
    {OVERLAP, 10, 1000000, 0xb50df7c6cd6a9117u}, {OVERLAP, 100, 1000000, 0x88bccd319f6f9135u},
    {OVERLAP, 1000, 1000000, 0x7d10085fee3f0809u}, {OVERLAP, 10000, 200000, 0x460702a6287bed81u},
    {NESTED, 10, 1000000, 0xcd3d3c837640461au},  {NESTED, 100, 1000000, 0x602bac342b1107c3u},
    {NESTED, 1000, 1000000, 0x65569b9ab5a1ea93u}, {NESTED, 10000, 200000, 0x78f6b9c377b25989u},
};
enum { SCENE_COUNT = sizeof reference / sizeof reference[0] };

/* ---- The scene in libtactile -------------------------------------------------------- */

/* tactile_node -> specification id, by open addressing. The hot loop needs the id of every
 * hit; a second library call (tactile_node_user_data) per query would add its own cost to
 * what the benchmark compares, and the node numbers' encoding is the library's business. */
struct node_map {
    tactile_node *keys;
    int *ids;
    size_t mask;
};

static size_t node_slot(const struct node_map *m, tactile_node node)
{
    size_t i = (size_t)((node * 0x9E3779B97F4A7C15u) >> 32) & m->mask;
    while (m->keys[i] != 0 && m->keys[i] != node) i = (i + 1) & m->mask;
    return i;
}

static int node_map_get(const struct node_map *m, tactile_node node)
{
    size_t i = node_slot(m, node);
    return m->keys[i] == node ? m->ids[i] : -2; /* -2: a node the scene never made */
}

struct built {
    tactile_router *router;
    struct node_map map;
};

static void fail_call(const char *what, tactile_status status, const tactile_router *router)
{
    fprintf(stderr, "scenes: %s: status %d (%s)\n", what, (int)status, tactile_router_error(router));
    exit(2);
}

static struct built build(const struct scene_items *s)
{
    struct built b = {tactile_router_create(), {0}};
    if (!b.router) fail_call("tactile_router_create", TACTILE_ERROR_NO_ROUTER, NULL);
    size_t capacity = 16;
    while (capacity < (size_t)s->count * 2) capacity *= 2;
    b.map.keys = calloc(capacity, sizeof *b.map.keys);
    b.map.ids = calloc(capacity, sizeof *b.map.ids);
    if (!b.map.keys || !b.map.ids) {
        perror("scenes");
        exit(2);
    }
    b.map.mask = capacity - 1;

    tactile_node *nodes = calloc((size_t)s->count, sizeof *nodes);
    if (!nodes) {
        perror("scenes");
        exit(2);
    }
    nodes[0] = tactile_router_root(b.router);
    tactile_status st = tactile_node_set_geometry(b.router, nodes[0], 0, 0, W, H);
    if (st != TACTILE_OK) fail_call("tactile_node_set_geometry(root)", st, b.router);
    for (int i = 1; i < s->count; i++) {
        const struct item *it = &s->items[i];
        /* MAPPED on trees too: a compositor node holding children is in use. Each rectangle
         * is a client of its own, as in Swift's BenchmarkScenes. */
        struct tactile_node_desc desc = {
            .client = it->kind == RECT ? (tactile_client)it->id : 0,
            .x = (int32_t)it->x,
            .y = (int32_t)it->y,
            .width = (int32_t)it->w,
            .height = (int32_t)it->h,
            .flags = TACTILE_NODE_MAPPED,
            .alpha = 1.0,
            .user_data = (void *)(uintptr_t)it->id,
        };
        st = tactile_node_add(b.router, nodes[it->parent], &desc, &nodes[i]);
        if (st != TACTILE_OK) fail_call("tactile_node_add", st, b.router);
        size_t slot = node_slot(&b.map, nodes[i]);
        if (b.map.keys[slot] == nodes[i]) {
            fprintf(stderr, "scenes: tactile_node_add gave node %" PRIu64 " twice\n", nodes[i]);
            exit(2);
        }
        b.map.keys[slot] = nodes[i];
        b.map.ids[slot] = it->id;
    }
    free(nodes);
    return b;
}

static void unbuild(struct built *b)
{
    tactile_router_destroy(b->router);
    free(b->map.keys);
    free(b->map.ids);
}

/* The spec id of what the library hits at x, y (-1: nothing). */
static int hit_id(const struct built *b, double x, double y, double *lx, double *ly)
{
    tactile_node node;
    tactile_status st = tactile_hit_test(b->router, x, y, &node, lx, ly);
    if (st != TACTILE_OK) fail_call("tactile_hit_test", st, b->router);
    if (node == 0) return -1;
    int id = node_map_get(&b->map, node);
    if (id < 0) {
        fprintf(stderr, "scenes: tactile_hit_test answered node %" PRIu64 ", which the scene never made\n", node);
        exit(2);
    }
    return id;
}

static uint64_t run_queries(const struct built *b, int m)
{
    struct queries q = queries_start();
    uint64_t h = CHECKSUM_START;
    for (int i = 0; i < m; i++) {
        double x, y;
        query_next(&q, &x, &y);
        h = fold(h, hit_id(b, x, y, NULL, NULL));
    }
    return h;
}

/* ---- check ---------------------------------------------------------------------------- */

static int check_full(void)
{
    int failures = 0;
    for (int k = 0; k < SCENE_COUNT; k++) {
        struct scene_items s = generate(reference[k].layout, reference[k].n);
        struct built b = build(&s);
        uint64_t sum = run_queries(&b, reference[k].m);
        int ok = sum == reference[k].checksum;
        failures += !ok;
        printf("%s %d %d 0x%016" PRIx64 " %s\n", layout_names[reference[k].layout], reference[k].n, reference[k].m, sum,
               ok ? "ok" : "MISMATCH");
        if (!ok) printf("  expected 0x%016" PRIx64 "\n", reference[k].checksum);
        fflush(stdout);
        unbuild(&b);
        free(s.items);
    }
    printf("scenes check: %d of %d scenes %s\n", SCENE_COUNT - failures, SCENE_COUNT, failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}

/* The specification's semantics, plainly: the last leaf in creation order whose absolute
 * rectangle holds the point (half-open). */
static int reference_hit(const struct scene_items *s, double x, double y)
{
    for (int i = s->count - 1; i > 0; i--) {
        const struct item *it = &s->items[i];
        if (it->kind == RECT && it->ax <= x && x < it->ax + it->w && it->ay <= y && y < it->ay + it->h) return i;
    }
    return -1;
}

/* The golden answers of queries-LAYOUT-N.txt ("q INDEX X Y HIT_ID LOCAL_X LOCAL_Y"), NULL
 * when the file is not there. */
struct golden {
    double x, y, lx, ly;
    int id;
};

static struct golden *read_golden(const char *dir, enum layout layout, int n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/queries-%s-%d.txt", dir, layout_names[layout], n);
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    struct golden *g = calloc(SHORT_QUERIES, sizeof *g);
    if (!g) {
        perror("scenes");
        exit(2);
    }
    char line[256];
    int count = 0;
    while (fgets(line, sizeof line, f)) {
        int index;
        struct golden q;
        if (sscanf(line, "q %d %lf %lf %d %lf %lf", &index, &q.x, &q.y, &q.id, &q.lx, &q.ly) != 6) continue;
        if (index != count || index >= SHORT_QUERIES) {
            fprintf(stderr, "scenes: %s: query %d out of order\n", path, index);
            exit(2);
        }
        g[count++] = q;
    }
    fclose(f);
    if (count != SHORT_QUERIES) {
        fprintf(stderr, "scenes: %s: %d queries, expected %d\n", path, count, SHORT_QUERIES);
        exit(2);
    }
    return g;
}

static int check_short(void)
{
    const char *dir = getenv("SCENES_DIR");
    if (!dir) dir = "../shared/bench/scenes";
    int failures = 0, golden_scenes = 0;
    for (int k = 0; k < SCENE_COUNT; k++) {
        enum layout layout = reference[k].layout;
        int n = reference[k].n;
        struct scene_items s = generate(layout, n);
        struct built b = build(&s);
        struct golden *golden = read_golden(dir, layout, n);
        golden_scenes += golden != NULL;
        struct queries q = queries_start();
        int wrong = 0;
        for (int i = 0; i < SHORT_QUERIES; i++) {
            double x, y, lx = 0, ly = 0;
            query_next(&q, &x, &y);
            int want = reference_hit(&s, x, y);
            double want_lx = want < 0 ? 0 : x - (double)s.items[want].ax;
            double want_ly = want < 0 ? 0 : y - (double)s.items[want].ay;
            /* The golden file checks this program's generator; the walk then stands for it. */
            if (golden && (golden[i].x != x || golden[i].y != y || golden[i].id != want ||
                           (want >= 0 && (golden[i].lx != want_lx || golden[i].ly != want_ly)))) {
                fprintf(stderr, "scenes: %s %d query %d: the generator disagrees with the golden file\n",
                        layout_names[layout], n, i);
                exit(2);
            }
            int got = hit_id(&b, x, y, &lx, &ly);
            /* Local coordinates mean something only for a hit; the header leaves them
             * unspecified for a miss. */
            int bad = got != want || (want >= 0 && (lx != want_lx || ly != want_ly));
            if (bad && wrong++ < 3)
                printf("  query %d at %.2f,%.2f: got %d (%.2f,%.2f), expected %d (%.2f,%.2f)\n", i, x, y, got, lx, ly,
                       want, want_lx, want_ly);
            /* The hit node's user_data must be the one given at tactile_node_add. */
            if (!bad && got >= 0) {
                tactile_node node;
                tactile_hit_test(b.router, x, y, &node, NULL, NULL);
                if ((uintptr_t)tactile_node_user_data(b.router, node) != (uintptr_t)got && wrong++ < 3)
                    printf("  query %d: tactile_node_user_data is not the node's user_data\n", i);
            }
        }
        failures += wrong != 0;
        printf("%s %d %d answers %s%s\n", layout_names[layout], n, SHORT_QUERIES, wrong ? "MISMATCH" : "ok",
               golden ? "" : " (no golden file: against the reference walk only)");
        fflush(stdout);
        free(golden);
        unbuild(&b);
        free(s.items);
    }
    printf("scenes check --short: %d of %d scenes ok (%d with golden files)\n", SCENE_COUNT - failures, SCENE_COUNT,
           golden_scenes);
    return failures ? 1 : 0;
}

/* ---- bench ---------------------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Times what Swift's verifyChecksum times (Benchmarks/Responder): the query stream, the hit
 * test, the id lookup and the checksum fold, per query. */
static int bench(enum layout layout, int n)
{
    int k = 0;
    while (k < SCENE_COUNT && !(reference[k].layout == layout && reference[k].n == n)) k++;
    if (k == SCENE_COUNT) {
        fprintf(stderr, "scenes: no scene %s %d (N is 10, 100, 1000 or 10000)\n", layout_names[layout], n);
        return 2;
    }
    int m = reference[k].m;
    struct scene_items s = generate(layout, n);
    struct built b = build(&s);
    hit_id(&b, 0, 0, NULL, NULL); /* any lazily computed state settles before timing */
    double runs[BENCH_RUNS];
    uint64_t sum = 0;
    for (int r = 0; r < BENCH_RUNS; r++) {
        double start = now_ns();
        sum = run_queries(&b, m);
        runs[r] = (now_ns() - start) / m;
    }
    qsort(runs, BENCH_RUNS, sizeof runs[0], compare_doubles);
    int ok = sum == reference[k].checksum;
    printf("%s %d %d queries: %.1f ns/query (median of %d; min %.1f, max %.1f), checksum 0x%016" PRIx64 " %s\n",
           layout_names[layout], n, m, runs[BENCH_RUNS / 2], BENCH_RUNS, runs[0], runs[BENCH_RUNS - 1], sum,
           ok ? "ok" : "MISMATCH");
    unbuild(&b);
    free(s.items);
    return ok ? 0 : 1;
}

static void count_event(void *data, const struct tactile_event *e)
{
    (void)e;
    ++*(uint64_t *)data;
}

/* Times what Swift's routing benchmarks time (Benchmarks/Responder) over the flat-100 scene,
 * every client with every device: `motion`, a touch moving along a row (motion and frame per
 * event); `tap`, a tap at each query point of the stream (down, frame, up, frame). */
static int route(const char *what)
{
    int motion = strcmp(what, "motion") == 0;
    if (!motion && strcmp(what, "tap") != 0) return 2;
    struct scene_items s = generate(FLAT, 100);
    struct built b = build(&s);
    uint64_t events = 0;
    tactile_router_set_event_callback(b.router, count_event, &events);
    for (int i = 1; i < s.count; i++)
        tactile_client_set_capabilities(b.router, (tactile_client)s.items[i].id,
                                        TACTILE_CAPABILITY_POINTER | TACTILE_CAPABILITY_KEYBOARD | TACTILE_CAPABILITY_TOUCH);
    enum { ROUTED = 1000000 };
    double runs[BENCH_RUNS];
    for (int r = 0; r < BENCH_RUNS; r++) {
        struct queries q = queries_start();
        if (motion) tactile_touch_down(b.router, 1, 100, 100, 0);
        double start = now_ns();
        for (uint64_t i = 0; i < ROUTED; i++) {
            if (motion) {
                tactile_touch_motion(b.router, 1, 100 + (double)(i % 500), 100, i * 1000);
                tactile_touch_frame(b.router);
            } else {
                double x, y;
                query_next(&q, &x, &y);
                tactile_touch_down(b.router, 1, x, y, i * 1000);
                tactile_touch_frame(b.router);
                tactile_touch_up(b.router, 1, i * 1000);
                tactile_touch_frame(b.router);
            }
        }
        runs[r] = (now_ns() - start) / ROUTED;
        if (motion) tactile_touch_up(b.router, 1, ROUTED * 1000);
    }
    qsort(runs, BENCH_RUNS, sizeof runs[0], compare_doubles);
    printf("route touch %s (flat-100): %.1f ns per %s (median of %d; min %.1f, max %.1f), %" PRIu64 " events delivered\n", what,
           runs[BENCH_RUNS / 2], motion ? "motion" : "tap", BENCH_RUNS, runs[0], runs[BENCH_RUNS - 1], events);
    unbuild(&b);
    free(s.items);
    return events > 0 ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr, "usage: scenes check [--short] | scenes bench flat|overlap|nested 10|100|1000|10000 | scenes route motion|tap\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "check") == 0) return check_full();
    if (argc == 3 && strcmp(argv[1], "check") == 0 && strcmp(argv[2], "--short") == 0) return check_short();
    if (argc == 3 && strcmp(argv[1], "route") == 0) {
        int status = route(argv[2]);
        if (status != 2) return status;
    }
    if (argc == 4 && strcmp(argv[1], "bench") == 0) {
        for (int l = FLAT; l <= NESTED; l++) {
            if (strcmp(argv[2], layout_names[l]) != 0) continue;
            char *end;
            errno = 0;
            long n = strtol(argv[3], &end, 10);
            if (errno || *end || n <= 0 || n > 10000) return usage();
            return bench((enum layout)l, (int)n);
        }
    }
    return usage();
}
