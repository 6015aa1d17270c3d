/* Determinism of the step (docs/testing.md, "Determinism and threads"): for every built-in scene
   (cs_scene_names()), a running 64-bit FNV-1a hash over the bytes of time, qpos, qvel and the
   contact count after every one of CS_DET_STEPS steps (2,000; a smaller -D gives fewer),
   with the scene's controller, reported at the checkpoints 500 and 2,000.
   (a) Run to run: the scene is run, freed and loaded again, run, reset, run: the three runs'
       hashes must be equal.
   (b) Across CPU paths: tests/CMakeLists.txt builds this file twice, against the library with
       the CPU-dispatch clones (AVX2 on a CPU that has it) and against a copy built without
       them (generic x86-64); both write their lines and `--compare` checks them equal to each
       other and to the golden hashes of tests/data/determinism_hashes.txt.
   Modes:
     test_determinism [--out FILE]    run; check (a); write "scene steps hash" lines to FILE
                                      (or to $CS_DETERMINISM_OUT) if given
     test_determinism --compare GOLDEN OUT...  every OUT equal to the others and to GOLDEN
     test_determinism --regen FILE    write a new golden file (header and lines) to FILE */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_scene.h"
#include "cs_test.h"

#ifndef CS_DET_STEPS
#define CS_DET_STEPS 2000
#endif
#ifndef CS_DET_VARIANT
#define CS_DET_VARIANT "dispatch (generic and AVX2 clones, chosen by the CPU)"
#endif

enum { NCHECK = 2, MAXSCENE = 16, MAXLINE = 256, MAXLINES = 256 };
static const int checkpoints[NCHECK] = {500, 2000};

static uint64_t fnv1a(uint64_t h, const void* p, size_t n) {
  const unsigned char* b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

/* Runs the scene from its start for CS_DET_STEPS steps; hash[c] = the running hash after
   checkpoints[c] steps (checkpoints beyond CS_DET_STEPS are not reached). Returns 0 if a
   step failed. */
static int run(csScene* s, uint64_t hash[NCHECK]) {
  const csModel* m = s->m;
  csData* d = s->d;
  uint64_t h = 0xcbf29ce484222325ull;
  int c = 0;
  for (int k = 1; k <= CS_DET_STEPS; k++) {
    cs_scene_control(s, m, d);
    csStatus st = cs_step(m, d);
    if (st != CS_OK) {
      fprintf(stderr, "%s: step %d: %s\n", s->name, k, cs_last_error());
      return 0;
    }
    h = fnv1a(h, &d->time, sizeof d->time);
    h = fnv1a(h, d->qpos, sizeof(double) * (size_t)m->nq);
    h = fnv1a(h, d->qvel, sizeof(double) * (size_t)m->nv);
    h = fnv1a(h, &d->ncon, sizeof d->ncon);
    if (c < NCHECK && k == checkpoints[c]) hash[c++] = h;
  }
  return 1;
}

/* ------------------------------------------------------------------ hash files */
typedef struct Line {
  char scene[64];
  int steps;
  char hash[32];
} Line;

/* Reads "scene steps hash" lines ('#' starts a comment). Returns the count or -1. */
static int read_lines(const char* path, Line* out, int max) {
  FILE* f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return -1;
  }
  char buf[MAXLINE];
  int n = 0, lineno = 0;
  while (fgets(buf, sizeof buf, f)) {
    lineno++;
    char* p = buf + strspn(buf, " \t");
    if (*p == '#' || *p == '\n' || *p == 0) continue;
    Line l;
    if (n >= max || sscanf(p, "%63s %d %31s", l.scene, &l.steps, l.hash) != 3) {
      fprintf(stderr, "%s:%d: expected 'scene steps hash'\n", path, lineno);
      fclose(f);
      return -1;
    }
    out[n++] = l;
  }
  fclose(f);
  return n;
}

/* The lines to f ("scene steps hash"), then f closed (checked). */
static void write_lines(FILE* f, const Line* l, int n) {
  for (int i = 0; i < n; i++) fprintf(f, "%s %d %s\n", l[i].scene, l[i].steps, l[i].hash);
  CHECK(fclose(f) == 0);
}

static const Line* find(const Line* l, int n, const char* scene, int steps) {
  for (int i = 0; i < n; i++)
    if (!strcmp(l[i].scene, scene) && l[i].steps == steps) return &l[i];
  return NULL;
}

/* Every line of got must be in golden with the same hash; every scene of golden must have a
   line in got. Prints each difference; returns their number. */
static int against_golden(const char* what, const Line* got, int ngot, const Line* gold,
                          int ngold) {
  int bad = 0;
  for (int i = 0; i < ngot; i++) {
    const Line* g = find(gold, ngold, got[i].scene, got[i].steps);
    if (!g) {
      fprintf(stderr, "%s: %s after %d steps: no golden hash\n", what, got[i].scene, got[i].steps);
      bad++;
    } else if (strcmp(g->hash, got[i].hash)) {
      fprintf(stderr, "%s: %s after %d steps: hash %s, golden %s\n", what, got[i].scene,
              got[i].steps, got[i].hash, g->hash);
      bad++;
    }
  }
  for (int i = 0; i < ngold; i++) {
    int seen = 0;
    for (int j = 0; j < ngot; j++) seen |= !strcmp(got[j].scene, gold[i].scene);
    if (!seen) {
      fprintf(stderr, "%s: scene %s missing\n", what, gold[i].scene);
      bad++;
    }
  }
  return bad;
}

static int compare(int nfile, char** files) {
  static Line gold[MAXLINES], first[MAXLINES], got[MAXLINES];
  int ngold = read_lines(files[0], gold, MAXLINES);
  CHECK_MSG(ngold > 0, "golden file %s: no hashes", files[0]);
  CHECK_MSG(nfile >= 2, "--compare GOLDEN OUT...: no output given");
  int nfirst = -1;
  for (int f = 1; f < nfile && ngold > 0; f++) {
    int n = read_lines(files[f], got, MAXLINES);
    CHECK_MSG(n > 0, "%s: no hashes", files[f]);
    if (n <= 0) continue;
    int bad = against_golden(files[f], got, n, gold, ngold);
    CHECK_MSG(bad == 0,
              "%s: %d differences from the golden %s: results changed (if on purpose, "
              "regenerate it with --regen in the same commit and say why; docs/testing.md)",
              files[f], bad, files[0]);
    if (nfirst < 0) {
      memcpy(first, got, sizeof(Line) * (size_t)n);
      nfirst = n;
      continue;
    }
    /* the variants, line by line */
    int diff = n != nfirst;
    for (int i = 0; i < n && !diff; i++)
      diff = strcmp(got[i].scene, first[i].scene) || got[i].steps != first[i].steps ||
             strcmp(got[i].hash, first[i].hash);
    CHECK_MSG(!diff, "%s and %s differ: the CPU paths give different results", files[1], files[f]);
    if (diff)
      for (int i = 0; i < n && i < nfirst; i++)
        if (strcmp(got[i].hash, first[i].hash))
          fprintf(stderr, "  %s %d: %s vs %s %d: %s\n", first[i].scene, first[i].steps,
                  first[i].hash, got[i].scene, got[i].steps, got[i].hash);
    if (!diff) printf("%s = %s (%d hashes)\n", files[1], files[f], n);
  }
  if (!cs_test_failures) printf("all outputs equal the golden %s\n", files[0]);
  return cs_test_finish("test_determinism --compare");
}

int main(int argc, char** argv) {
  if (argc >= 2 && !strcmp(argv[1], "--compare")) return compare(argc - 2, argv + 2);
  const char* out = getenv("CS_DETERMINISM_OUT");
  const char* regen = NULL;
  if (argc == 3 && !strcmp(argv[1], "--out"))
    out = argv[2];
  else if (argc == 3 && !strcmp(argv[1], "--regen"))
    regen = argv[2];
  else if (argc != 1) {
    fprintf(stderr, "usage: %s [--out FILE | --regen FILE | --compare GOLDEN OUT...]\n", argv[0]);
    return 2;
  }
  if (regen && CS_DET_STEPS < checkpoints[NCHECK - 1]) {
    fprintf(stderr, "--regen needs all %d steps (this build runs %d)\n", checkpoints[NCHECK - 1],
            CS_DET_STEPS);
    return 2;
  }
  if (out) remove(out); /* a failed run leaves no stale file for --compare */
  int avx2 = 0;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
  printf("library: %s; CPU has AVX2: %s; %d steps per run\n", CS_DET_VARIANT, avx2 ? "yes" : "no",
         CS_DET_STEPS);

  const char* dir = cs_test_source("models");
  const char* const* names = cs_scene_names();
  static Line lines[MAXLINES];
  int nline = 0, nscene = 0;
  for (int i = 0; names[i] && i < MAXSCENE; i++, nscene++) {
    uint64_t h[3][NCHECK] = {{0}};
    int ok = 1;
    csScene s;
    for (int r = 0; r < 3 && ok; r++) {
      if (r < 2) { /* run 0 and 1: a fresh load; run 2: cs_scene_reset of run 1's scene */
        csStatus st = cs_scene_load(names[i], dir, NAN, &s);
        CHECK_MSG(st == CS_OK, "load %s: %s", names[i], cs_last_error());
        if (st != CS_OK) {
          ok = 0;
          break;
        }
      } else {
        cs_scene_reset(&s);
      }
      ok = run(&s, h[r]);
      CHECK_MSG(ok, "%s: run %d failed", names[i], r);
      if (r == 0 || !ok) cs_scene_free(&s);
    }
    if (!ok) continue;
    cs_scene_free(&s);
    for (int c = 0; c < NCHECK && checkpoints[c] <= CS_DET_STEPS; c++) {
      CHECK_MSG(h[1][c] == h[0][c] && h[2][c] == h[0][c],
                "%s after %d steps: run to run %016llx, reloaded %016llx, reset %016llx", names[i],
                checkpoints[c], (unsigned long long)h[0][c], (unsigned long long)h[1][c],
                (unsigned long long)h[2][c]);
      Line* l = &lines[nline++];
      snprintf(l->scene, sizeof l->scene, "%s", names[i]);
      l->steps = checkpoints[c];
      snprintf(l->hash, sizeof l->hash, "%016llx", (unsigned long long)h[0][c]);
      printf("%s %d %s\n", l->scene, l->steps, l->hash);
    }
  }
  CHECK_MSG(nscene == 7, "%d built-in scenes, 7 expected (update the golden file)", nscene);

  if (regen) {
    FILE* f = fopen(regen, "w");
    CHECK_MSG(f != NULL, "cannot write %s", regen);
    if (f) {
      fprintf(f,
              "# Golden hashes of tests/pipeline/test_determinism.c: per built-in scene, the\n"
              "# running FNV-1a 64 hash of (time, qpos, qvel, ncon) after every step, at 500\n"
              "# and 2000 steps (scene steps hash). Generic and AVX2 builds must both give\n"
              "# these. A change that alters any result must regenerate this file in the\n"
              "# same commit and say why in the commit message:\n"
              "#   build/tests/test_determinism --regen tests/data/determinism_hashes.txt\n"
              "# (from the source tree, a Release build; see docs/testing.md).\n");
      write_lines(f, lines, nline);
      printf("wrote %d hashes to %s\n", nline, regen);
    }
    return cs_test_finish("test_determinism --regen");
  }
  if (out) {
    FILE* f = fopen(out, "w");
    CHECK_MSG(f != NULL, "cannot write %s", out);
    if (f) {
      fprintf(f, "# test_determinism: %s; CPU has AVX2: %s\n", CS_DET_VARIANT, avx2 ? "yes" : "no");
      write_lines(f, lines, nline);
    }
  }
  return cs_test_finish("test_determinism");
}
