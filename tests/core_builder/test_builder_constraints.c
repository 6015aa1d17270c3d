/* The builder's constraints beyond contacts: joint friction loss and limit margin (stored per
   joint and per dof, validated), and equality constraints (added, validated, resolved by
   name at compile, eq_data at the reference configuration). Every error returns its status
   with a message naming the object and its source; eq_data is checked against a hand
   computation of the bodies' world poses (independent of the library's math) and against
   cs_kinematics at qpos0; cs_model_copy keeps every new array. */
#include <stdlib.h>
#include <string.h>

#include "contactsim/contactsim.h"
#include "cs_test.h"

/* ------------------------------------------------------------------ allocation count */
static long live_allocs = 0;
static void* count_malloc(size_t n) {
  live_allocs++;
  return malloc(n);
}
static void count_free(void* p) {
  if (p) live_allocs--;
  free(p);
}

/* ------------------------------------------------------------------ small rotations */
static void qmul(double* r, const double* a, const double* b) {
  double t[4] = {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                 a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                 a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                 a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
  memcpy(r, t, sizeof t);
}
static void qunit(double* q) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int k = 0; k < 4; k++) q[k] /= n;
}
/* R of a unit quaternion, row-major */
static void qmat(double* R, const double* q) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = w * w + x * x - y * y - z * z, R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = w * w - x * x + y * y - z * z, R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = w * w - x * x - y * y + z * z;
}
static void mv(double* r, const double* R, const double* v) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
  memcpy(r, t, sizeof t);
}
static void mtv(double* r, const double* R, const double* v) {
  double t[3];
  for (int i = 0; i < 3; i++) t[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2];
  memcpy(r, t, sizeof t);
}
/* world pose (p, q) = (pa, qa) * (pb, qb) */
static void compose(double* p, double* q, const double* pa, const double* qa, const double* pb,
                    const double* qb) {
  double R[9], t[3];
  qmat(R, qa);
  mv(t, R, pb);
  for (int k = 0; k < 3; k++) p[k] = pa[k] + t[k];
  qmul(q, qa, qb);
  qunit(q);
}
static double maxdiff(const double* a, const double* b, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) e = fmax(e, fabs(a[i] - b[i]));
  return e;
}
/* |q1 - q2| up to sign (q and -q are the same rotation) */
static double qdiff(const double* a, const double* b) {
  double s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  double e = 0;
  for (int k = 0; k < 4; k++) e = fmax(e, fabs(a[k] - s * b[k]));
  return e;
}

/* ------------------------------------------------------------------ builders */
static int add_body(csBuilder* b, const char* name, int parent, const double* pos,
                    const double* quat) {
  csBodySpec s;
  cs_body_spec_default(&s);
  s.name = name;
  s.parent = parent;
  s.mass = 1;
  s.inertia[0] = s.inertia[1] = s.inertia[2] = 0.01;
  if (pos) memcpy(s.pos, pos, sizeof s.pos);
  if (quat) memcpy(s.quat, quat, sizeof s.quat);
  s.source = "here.xml:1";
  int id = cs_builder_add_body(b, &s);
  CHECK_MSG(id > 0, "add body %s: %s", name, cs_last_error());
  return id;
}

static int add_joint(csBuilder* b, const char* name, int body, int type) {
  csJointSpec s;
  cs_joint_spec_default(&s);
  s.name = name;
  s.body = body;
  s.type = type;
  s.source = "here.xml:2";
  int id = cs_builder_add_joint(b, &s);
  CHECK_MSG(id >= 0, "add joint %s: %s", name, cs_last_error());
  return id;
}

/* Error text contains every one of up to three strings. */
static int says(const char* a, const char* b, const char* c) {
  const char* e = cs_last_error();
  return strstr(e, a) && (!b || strstr(e, b)) && (!c || strstr(e, c));
}

/* ------------------------------------------------------------------ joint validation */
/* A joint spec that cs_builder_add_joint must refuse with CS_ERR_MODEL, naming the joint, its
   source and what. */
static void expect_joint_error(const csJointSpec* s, const char* what) {
  csBuilder* b = cs_builder_new();
  int body = add_body(b, "body", 0, NULL, NULL);
  csJointSpec t = *s;
  t.body = body;
  int id = cs_builder_add_joint(b, &t);
  CHECK_MSG(id == -1, "joint '%s' (%s) accepted", s->name, what);
  CHECK_MSG(says(s->name, s->source ? s->source : "builder", what), "joint '%s': message: %s",
            s->name, cs_last_error());
  CHECK(cs_builder_njoint(b) == 0);
  cs_builder_free(b);
}

static void test_joint_validation(void) {
  csJointSpec s;
  cs_joint_spec_default(&s);
  CHECK(s.margin == 0 && s.frictionloss == 0);
  s.source = "robot.xml:7";

  s.name = "neg_friction";
  s.frictionloss = -0.1;
  expect_joint_error(&s, "frictionloss = -0.1 must be finite and >= 0");
  s.name = "nan_friction";
  s.frictionloss = NAN;
  expect_joint_error(&s, "frictionloss");
  s.name = "inf_friction";
  s.frictionloss = INFINITY;
  expect_joint_error(&s, "frictionloss");
  s.frictionloss = 0;
  s.name = "neg_margin";
  s.margin = -1e-3;
  expect_joint_error(&s, "margin = -0.001 must be finite and >= 0");
  s.name = "inf_margin";
  s.margin = INFINITY;
  expect_joint_error(&s, "margin");
  s.margin = 0;

  s.name = "inverted";
  s.limited = 1;
  s.range[0] = 0.5, s.range[1] = -0.5;
  expect_joint_error(&s, "range lower 0.5 > upper -0.5");
  s.type = CS_JNT_PRISMATIC;
  expect_joint_error(&s, "range lower 0.5 > upper -0.5");
  s.type = CS_JNT_REVOLUTE;
  s.name = "infinite_range";
  s.range[0] = -INFINITY, s.range[1] = 1;
  expect_joint_error(&s, "must be finite");
  s.name = "nan_range";
  s.range[0] = 0, s.range[1] = NAN;
  expect_joint_error(&s, "must be finite");

  s.type = CS_JNT_BALL;
  s.name = "ball_two_sided";
  s.range[0] = -1, s.range[1] = 1;
  expect_joint_error(&s, "a limited ball joint's range must be (0, largest rotation angle");
  s.name = "ball_zero_angle";
  s.range[0] = 0, s.range[1] = 0;
  expect_joint_error(&s, "a limited ball joint's range");
  s.type = CS_JNT_FREE;
  s.name = "free_limited";
  s.range[0] = -1, s.range[1] = 1;
  expect_joint_error(&s, "a free joint cannot be limited");
  /* without a source the message says "builder" */
  s.source = NULL;
  s.name = "nowhere";
  expect_joint_error(&s, "a free joint cannot be limited");

  /* accepted: an inverted range on an unlimited joint (the range does not apply), a limited
     ball joint (0, angle), margin and friction loss on every kind of joint */
  csBuilder* b = cs_builder_new();
  int a = add_body(b, "a", 0, NULL, NULL), c = add_body(b, "c", a, NULL, NULL);
  int d = add_body(b, "d", c, NULL, NULL);
  cs_joint_spec_default(&s);
  s.name = "free";
  s.body = a;
  s.type = CS_JNT_FREE;
  s.frictionloss = 0.3;
  CHECK_MSG(cs_builder_add_joint(b, &s) == 0, "%s", cs_last_error());
  s.name = "ball";
  s.body = c;
  s.type = CS_JNT_BALL;
  s.limited = 1;
  s.range[0] = 0, s.range[1] = 1.2;
  s.margin = 0.05;
  s.frictionloss = 0.4;
  CHECK_MSG(cs_builder_add_joint(b, &s) == 1, "%s", cs_last_error());
  s.name = "hinge";
  s.body = d;
  s.type = CS_JNT_REVOLUTE;
  s.limited = 0;
  s.range[0] = 1, s.range[1] = -1;
  s.margin = 0.01;
  s.frictionloss = 0;
  CHECK_MSG(cs_builder_add_joint(b, &s) == 2, "%s", cs_last_error());
  s.name = "slide";
  s.type = CS_JNT_PRISMATIC;
  s.limited = 1;
  s.range[0] = -0.2, s.range[1] = -0.2; /* equal bounds: a locked joint, allowed */
  s.margin = 0;
  s.frictionloss = 2;
  CHECK_MSG(cs_builder_add_joint(b, &s) == 3, "%s", cs_last_error());
  csModel* m = NULL;
  CHECK_MSG(cs_compile(b, &m) == CS_OK, "%s", cs_last_error());
  if (m) {
    /* friction loss on every dof of its joint, margin per joint */
    CHECK(m->nv == 6 + 3 + 1 + 1 && m->njnt == 4);
    static const double fl[11] = {0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.4, 0.4, 0.4, 0, 2};
    for (int i = 0; i < m->nv; i++) CHECK_NEAR(m->dof_frictionloss[i], fl[i], 0);
    static const double mg[4] = {0, 0.05, 0.01, 0};
    for (int j = 0; j < m->njnt; j++) CHECK_NEAR(m->jnt_margin[j], mg[j], 0);
    int jb = cs_name2id(m, "joint", "ball");
    CHECK(jb == 1 && m->jnt_limited[jb] == 1);
    if (jb >= 0) CHECK_NEAR(m->jnt_range[2 * jb + 1], 1.2, 0);
    CHECK(m->neq == 0);
    cs_model_free(m);
  }
  cs_builder_free(b);
}

/* ------------------------------------------------------------------ equality specs */
static void test_equality_spec(void) {
  csEqualitySpec e;
  memset(&e, 0x5a, sizeof e);
  cs_equality_spec_default(&e);
  CHECK(e.name == NULL && e.obj1 == NULL && e.obj2 == NULL && e.source == NULL);
  CHECK(e.type == CS_EQ_CONNECT && e.active == 1);
  static const double poly[5] = {0, 1, 0, 0, 0}, zero[3] = {0, 0, 0};
  CHECK(memcmp(e.polycoef, poly, sizeof poly) == 0);
  CHECK(memcmp(e.anchor, zero, sizeof zero) == 0);

  csBuilder* b = cs_builder_new();
  add_joint(b, "fa", add_body(b, "a", 0, NULL, NULL), CS_JNT_FREE);
  e.name = "bad";
  e.source = "eq.xml:3";
  e.obj1 = "a";
  e.type = 7;
  CHECK(cs_builder_add_equality(b, &e) == -1);
  CHECK_MSG(says("equality 'bad' (eq.xml:3)", "unknown type 7", NULL), "%s", cs_last_error());
  e.type = CS_EQ_WELD;
  e.obj1 = NULL;
  CHECK(cs_builder_add_equality(b, &e) == -1);
  CHECK_MSG(says("equality 'bad' (eq.xml:3)", "obj1", "body"), "%s", cs_last_error());
  e.type = CS_EQ_JOINT;
  e.obj1 = "";
  CHECK(cs_builder_add_equality(b, &e) == -1);
  CHECK_MSG(says("equality 'bad' (eq.xml:3)", "obj1", "joint"), "%s", cs_last_error());
  e.type = CS_EQ_CONNECT;
  e.obj1 = "a";
  e.anchor[1] = NAN;
  CHECK(cs_builder_add_equality(b, &e) == -1);
  CHECK_MSG(says("equality 'bad' (eq.xml:3)", "NaN or Inf", NULL), "%s", cs_last_error());
  e.anchor[1] = 0;
  e.polycoef[3] = INFINITY;
  e.name = NULL;
  e.source = NULL;
  CHECK(cs_builder_add_equality(b, &e) == -1);
  CHECK_MSG(says("equality #0 (unnamed) (builder)", "NaN or Inf", NULL), "%s", cs_last_error());
  e.polycoef[3] = 0;
  /* the builder copies the strings: the caller's buffers may change afterwards */
  char name[8] = "keep", obj[8] = "a";
  e.name = name;
  e.obj1 = obj;
  e.obj2 = "";  /* empty: the world */
  e.active = 5; /* any nonzero: active */
  CHECK(cs_builder_add_equality(b, &e) == 0);
  strcpy(name, "gone");
  strcpy(obj, "zz");
  csModel* m = NULL;
  CHECK_MSG(cs_compile(b, &m) == CS_OK, "%s", cs_last_error());
  if (m) {
    CHECK(m->neq == 1);
    CHECK(cs_name2id(m, "equality", "keep") == 0);
    CHECK(cs_name2id(m, "equality", "gone") == -1);
    CHECK(cs_id2name(m, "equality", 0) && !strcmp(cs_id2name(m, "equality", 0), "keep"));
    CHECK(cs_id2name(m, "equality", 1) == NULL);
    CHECK(m->eq_obj1[0] == 1 && m->eq_obj2[0] == 0 && m->eq_active[0] == 1);
    cs_model_free(m);
  }
  cs_builder_free(b);
}

/* ------------------------------------------------------------------ compile errors */
/* world; a (hinge "ha"); b child of a (ball "bb"); s child of a without a movable joint
   (merged into a; fixed joint "weld"); t child of the world without a joint (welded to the
   world); two bodies named "twin". */
static csBuilder* error_model(void) {
  csBuilder* b = cs_builder_new();
  int a = add_body(b, "a", 0, NULL, NULL);
  add_joint(b, "ha", a, CS_JNT_REVOLUTE);
  int bb = add_body(b, "b", a, NULL, NULL);
  add_joint(b, "bb", bb, CS_JNT_BALL);
  int s = add_body(b, "s", a, NULL, NULL);
  add_joint(b, "weld", s, CS_JNT_FIXED);
  add_body(b, "t", 0, NULL, NULL);
  add_joint(b, "sl", add_body(b, "twin", 0, NULL, NULL), CS_JNT_PRISMATIC);
  add_joint(b, "sl2", add_body(b, "twin", 0, NULL, NULL), CS_JNT_PRISMATIC);
  return b;
}

static void expect_compile_error(int type, const char* obj1, const char* obj2, const char* a,
                                 const char* c) {
  long before = live_allocs;
  csBuilder* b = error_model();
  csEqualitySpec e;
  cs_equality_spec_default(&e);
  e.name = "eqx";
  e.type = type;
  e.obj1 = obj1;
  e.obj2 = obj2;
  e.source = "model.xml:42";
  CHECK_MSG(cs_builder_add_equality(b, &e) == 0, "%s", cs_last_error());
  csModel* m = (csModel*)&e;
  csStatus st = cs_compile(b, &m);
  CHECK_MSG(st == CS_ERR_MODEL, "%s %s: status %s", obj1, obj2 ? obj2 : "-", cs_status_name(st));
  CHECK(m == NULL);
  CHECK_MSG(says("equality 'eqx' (model.xml:42): ", a, c), "%s %s: message: %s", obj1,
            obj2 ? obj2 : "-", cs_last_error());
  cs_builder_free(b);
  CHECK_MSG(live_allocs == before, "%ld allocations leaked", live_allocs - before);
}

static void test_compile_errors(void) {
  /* missing names */
  expect_compile_error(CS_EQ_CONNECT, "nobody", NULL, "body 'nobody' not found", NULL);
  expect_compile_error(CS_EQ_WELD, "a", "ghost", "body 'ghost' not found", NULL);
  expect_compile_error(CS_EQ_JOINT, "foo", NULL, "joint 'foo' not found", NULL);
  expect_compile_error(CS_EQ_JOINT, "ha", "bar", "joint 'bar' not found", NULL);
  /* a joint equality needs revolute or prismatic joints */
  expect_compile_error(CS_EQ_JOINT, "bb", NULL, "joint 'bb' is a ball joint", NULL);
  expect_compile_error(CS_EQ_JOINT, "ha", "bb", "joint 'bb' is a ball joint", NULL);
  expect_compile_error(CS_EQ_JOINT, "weld", "ha", "joint 'weld' is a fixed", NULL);
  expect_compile_error(CS_EQ_JOINT, "ha", "ha", "couples joint 'ha' with itself", NULL);
  /* a body and itself, or two bodies that compile into one */
  expect_compile_error(CS_EQ_CONNECT, "a", "a", "connects body 'a' to itself", NULL);
  expect_compile_error(CS_EQ_WELD, "world", NULL, "connects body 'world' to itself", NULL);
  expect_compile_error(CS_EQ_CONNECT, "s", "a", "bodies 's' and 'a' are welded into one body",
                       "('a')");
  expect_compile_error(CS_EQ_WELD, "t", NULL, "bodies 't' and 'world' are welded into one body",
                       NULL);
  /* an ambiguous name */
  expect_compile_error(CS_EQ_CONNECT, "twin", "a", "body name 'twin' is ambiguous", NULL);
}

/* ------------------------------------------------------------------ eq_data */
static const double qa_[4] = {0.9, 0.1, -0.3, 0.2}, qb_[4] = {0.7, 0.4, 0.5, -0.1},
                    qf_[4] = {0.5, -0.5, 0.5, 0.5}, qc_[4] = {0.95, 0, 0.2, 0.1},
                    qs_[4] = {0.8, 0.3, 0.1, 0.4};
static const double pa_[3] = {1, 2, 3}, pb_[3] = {0.5, 0, 0}, pf_[3] = {0, 0.2, 0.1},
                    pc_[3] = {-1, 0, 0.5}, ps_[3] = {0, 0, 2};

/* A free body A, B on a hinge under A, F (no joint: merged into B) under B, C on a slide under
   the world, S (no joint: welded to the world) under the world; equalities of every type. */
static csBuilder* eq_model(void) {
  csBuilder* b = cs_builder_new();
  double q[5][4];
  memcpy(q[0], qa_, sizeof qa_), memcpy(q[1], qb_, sizeof qb_), memcpy(q[2], qf_, sizeof qf_);
  memcpy(q[3], qc_, sizeof qc_), memcpy(q[4], qs_, sizeof qs_);
  for (int k = 0; k < 5; k++) qunit(q[k]);
  int A = add_body(b, "A", 0, pa_, q[0]);
  add_joint(b, "freeA", A, CS_JNT_FREE);
  int B = add_body(b, "B", A, pb_, q[1]);
  csJointSpec j;
  cs_joint_spec_default(&j);
  j.name = "hinge";
  j.body = B;
  j.pos[0] = 0.1;
  j.axis[0] = 1, j.axis[1] = 1, j.axis[2] = 0;
  j.limited = 1;
  j.range[0] = -1, j.range[1] = 1;
  j.margin = 0.02;
  j.frictionloss = 0.5;
  CHECK(cs_builder_add_joint(b, &j) >= 0);
  add_body(b, "F", B, pf_, q[2]);
  int C = add_body(b, "C", 0, pc_, q[3]);
  add_joint(b, "slide", C, CS_JNT_PRISMATIC);
  add_body(b, "S", 0, ps_, q[4]);

  csEqualitySpec e;
  cs_equality_spec_default(&e);
  e.source = "eq.xml:9";
  e.name = "c1";
  e.obj1 = "B";
  e.obj2 = "C";
  e.anchor[0] = 0.1, e.anchor[1] = 0.2, e.anchor[2] = 0.3;
  CHECK(cs_builder_add_equality(b, &e) == 0);
  e.name = "c2";
  e.obj1 = "F";
  e.obj2 = NULL;
  e.anchor[0] = 0.05, e.anchor[1] = 0, e.anchor[2] = 0;
  CHECK(cs_builder_add_equality(b, &e) == 1);
  e.name = "w1";
  e.type = CS_EQ_WELD;
  e.obj1 = "A";
  e.obj2 = "S";
  e.anchor[0] = 0, e.anchor[1] = -0.1, e.anchor[2] = 0.2;
  CHECK(cs_builder_add_equality(b, &e) == 2);
  e.name = "w2";
  e.obj1 = "C";
  e.obj2 = "F";
  e.anchor[0] = e.anchor[1] = e.anchor[2] = 0;
  CHECK(cs_builder_add_equality(b, &e) == 3);
  e.name = "j1";
  e.type = CS_EQ_JOINT;
  e.obj1 = "hinge";
  e.obj2 = "slide";
  static const double poly[5] = {0.1, 2, 0, 0.5, 0};
  memcpy(e.polycoef, poly, sizeof poly);
  e.active = 0;
  CHECK(cs_builder_add_equality(b, &e) == 4);
  e.name = "j2";
  e.obj1 = "slide";
  e.obj2 = NULL;
  e.active = 1;
  static const double ident[5] = {0, 1, 0, 0, 0};
  memcpy(e.polycoef, ident, sizeof ident);
  CHECK(cs_builder_add_equality(b, &e) == 5);
  return b;
}

static void test_eq_data(void) {
  long before = live_allocs;
  csBuilder* b = eq_model();
  csModel* m = NULL;
  CHECK_MSG(cs_compile(b, &m) == CS_OK, "%s", cs_last_error());
  if (!m) {
    cs_builder_free(b);
    return;
  }
  CHECK(m->neq == 6);
  int A = cs_name2id(m, "body", "A"), B = cs_name2id(m, "body", "B"),
      C = cs_name2id(m, "body", "C");
  CHECK(A > 0 && B > 0 && C > 0);
  CHECK(cs_name2id(m, "body", "F") == -1 && cs_name2id(m, "body", "S") == -1); /* merged */
  int hinge = cs_name2id(m, "joint", "hinge"), slide = cs_name2id(m, "joint", "slide");
  CHECK(hinge >= 0 && slide >= 0);
  if (A <= 0 || B <= 0 || C <= 0 || hinge < 0 || slide < 0) {
    cs_model_free(m);
    cs_builder_free(b);
    return;
  }
  /* names and kinds */
  static const char* const names[6] = {"c1", "c2", "w1", "w2", "j1", "j2"};
  static const int types[6] = {CS_EQ_CONNECT, CS_EQ_CONNECT, CS_EQ_WELD,
                               CS_EQ_WELD,    CS_EQ_JOINT,   CS_EQ_JOINT};
  for (int e = 0; e < 6; e++) {
    CHECK(cs_name2id(m, "equality", names[e]) == e);
    CHECK(!strcmp(cs_id2name(m, "equality", e), names[e]));
    CHECK(m->eq_type[e] == types[e]);
    CHECK(m->eq_active[e] == (e != 4));
  }
  CHECK(m->eq_obj1[0] == B && m->eq_obj2[0] == C);
  CHECK(m->eq_obj1[1] == B && m->eq_obj2[1] == 0); /* F is carried by B; the world */
  CHECK(m->eq_obj1[2] == A && m->eq_obj2[2] == 0); /* S is welded to the world */
  CHECK(m->eq_obj1[3] == C && m->eq_obj2[3] == B);
  CHECK(m->eq_obj1[4] == hinge && m->eq_obj2[4] == slide);
  CHECK(m->eq_obj1[5] == slide && m->eq_obj2[5] == -1);

  /* hand computation of the world poses at the reference (every joint at 0) */
  double q[5][4];
  memcpy(q[0], qa_, sizeof qa_), memcpy(q[1], qb_, sizeof qb_), memcpy(q[2], qf_, sizeof qf_);
  memcpy(q[3], qc_, sizeof qc_), memcpy(q[4], qs_, sizeof qs_);
  for (int k = 0; k < 5; k++) qunit(q[k]);
  double pA[3], qA[4], pB[3], qB[4], pF[3], qF[4], pC[3], qC[4], RA[9], RB[9], RC[9];
  memcpy(pA, pa_, sizeof pA), memcpy(qA, q[0], sizeof qA);
  compose(pB, qB, pA, qA, pb_, q[1]);
  compose(pF, qF, pB, qB, pf_, q[2]);
  memcpy(pC, pc_, sizeof pC), memcpy(qC, q[3], sizeof qC);
  qmat(RA, qA), qmat(RB, qB), qmat(RC, qC);
  double w[3], t[3];

  /* c1: anchor on B in B's frame; the world point in C's frame */
  const double* d = m->eq_data;
  double a1[3] = {0.1, 0.2, 0.3};
  CHECK(maxdiff(d, a1, 3) == 0);
  mv(t, RB, a1);
  for (int k = 0; k < 3; k++) w[k] = pB[k] + t[k] - pC[k];
  mtv(t, RC, w);
  CHECK_MSG(maxdiff(d + 3, t, 3) < 1e-13, "c1 anchor 2: error %g", maxdiff(d + 3, t, 3));
  for (int k = 6; k < 11; k++) CHECK(d[k] == 0);

  /* c2: F's anchor carried into B's frame (F's pose in B); the world point */
  d = m->eq_data + 11;
  double aF[3] = {0.05, 0, 0}, RFB[9], inB[3];
  qmat(RFB, q[2]);
  mv(t, RFB, aF);
  for (int k = 0; k < 3; k++) inB[k] = pf_[k] + t[k];
  CHECK_MSG(maxdiff(d, inB, 3) < 1e-15, "c2 anchor 1: error %g", maxdiff(d, inB, 3));
  double RF[9];
  qmat(RF, qF);
  mv(t, RF, aF);
  for (int k = 0; k < 3; k++) w[k] = pF[k] + t[k];
  CHECK_MSG(maxdiff(d + 3, w, 3) < 1e-13, "c2 anchor 2: error %g", maxdiff(d + 3, w, 3));

  /* w1: A to the world (S is welded to it): the anchor in the world; A's orientation */
  d = m->eq_data + 22;
  double aA[3] = {0, -0.1, 0.2};
  CHECK(maxdiff(d, aA, 3) == 0);
  mv(t, RA, aA);
  for (int k = 0; k < 3; k++) w[k] = pA[k] + t[k];
  CHECK_MSG(maxdiff(d + 3, w, 3) < 1e-13, "w1 anchor 2: error %g", maxdiff(d + 3, w, 3));
  CHECK_MSG(qdiff(d + 6, qA) < 1e-13, "w1 quat: error %g", qdiff(d + 6, qA));
  CHECK(d[10] == 0);

  /* w2: C to F, i.e. to B: C's origin in B's frame; q_B^-1 q_C */
  d = m->eq_data + 33;
  for (int k = 0; k < 3; k++) CHECK(d[k] == 0);
  for (int k = 0; k < 3; k++) w[k] = pC[k] - pB[k];
  mtv(t, RB, w);
  CHECK_MSG(maxdiff(d + 3, t, 3) < 1e-13, "w2 anchor 2: error %g", maxdiff(d + 3, t, 3));
  double qBi[4] = {qB[0], -qB[1], -qB[2], -qB[3]}, rel[4];
  qmul(rel, qBi, qC);
  CHECK_MSG(qdiff(d + 6, rel) < 1e-13, "w2 quat: error %g", qdiff(d + 6, rel));
  CHECK_NEAR(d[6] * d[6] + d[7] * d[7] + d[8] * d[8] + d[9] * d[9], 1, 1e-14);

  double saved[66];
  memcpy(saved, m->eq_data, sizeof saved);

  /* j1, j2: the polynomial, then zeros */
  static const double poly[5] = {0.1, 2, 0, 0.5, 0}, ident[5] = {0, 1, 0, 0, 0};
  d = m->eq_data + 44;
  CHECK(maxdiff(d, poly, 5) == 0);
  for (int k = 5; k < 11; k++) CHECK(d[k] == 0);
  CHECK(maxdiff(m->eq_data + 55, ident, 5) == 0);

  /* the library's own kinematics at qpos0 agrees: anchor 1 on body 1 and anchor 2 on body 2
     are the same world point; for a weld, q2 * rel = q1 */
  csData* dd = cs_data_new(m);
  CHECK(dd != NULL);
  if (dd) {
    cs_kinematics(m, dd);
    for (int e = 0; e < 4; e++) {
      const double* x = m->eq_data + 11 * e;
      int b1 = m->eq_obj1[e], b2 = m->eq_obj2[e];
      double p1[3], p2[3];
      mv(p1, dd->xmat + 9 * b1, x);
      mv(p2, dd->xmat + 9 * b2, x + 3);
      for (int k = 0; k < 3; k++) p1[k] += dd->xpos[3 * b1 + k], p2[k] += dd->xpos[3 * b2 + k];
      CHECK_MSG(maxdiff(p1, p2, 3) < 1e-13, "%s: anchors %g apart at qpos0", names[e],
                maxdiff(p1, p2, 3));
      if (m->eq_type[e] == CS_EQ_WELD) {
        double q1[4];
        qmul(q1, dd->xquat + 4 * b2, x + 6);
        CHECK_MSG(qdiff(q1, dd->xquat + 4 * b1) < 1e-13, "%s: orientation off by %g", names[e],
                  qdiff(q1, dd->xquat + 4 * b1));
      }
    }
    cs_data_free(dd);
  }

  /* the hinge's margin and friction loss */
  CHECK_NEAR(m->jnt_margin[hinge], 0.02, 0);
  CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[hinge]], 0.5, 0);
  CHECK_NEAR(m->dof_frictionloss[m->jnt_dofadr[slide]], 0, 0);

  /* the copy keeps every array */
  csModel* c = cs_model_copy(m);
  CHECK(c != NULL);
  if (c) {
    CHECK(c->neq == m->neq && c->njnt == m->njnt && c->nv == m->nv);
    CHECK(c->eq_data != m->eq_data && c->jnt_margin != m->jnt_margin);
    CHECK(memcmp(c->eq_type, m->eq_type, sizeof(int) * (size_t)m->neq) == 0);
    CHECK(memcmp(c->eq_obj1, m->eq_obj1, sizeof(int) * (size_t)m->neq) == 0);
    CHECK(memcmp(c->eq_obj2, m->eq_obj2, sizeof(int) * (size_t)m->neq) == 0);
    CHECK(memcmp(c->eq_active, m->eq_active, sizeof(int) * (size_t)m->neq) == 0);
    CHECK(memcmp(c->eq_data, m->eq_data, sizeof(double) * 11 * (size_t)m->neq) == 0);
    CHECK(memcmp(c->eq_name, m->eq_name, sizeof(int) * (size_t)m->neq) == 0);
    CHECK(memcmp(c->jnt_margin, m->jnt_margin, sizeof(double) * (size_t)m->njnt) == 0);
    CHECK(memcmp(c->dof_frictionloss, m->dof_frictionloss, sizeof(double) * (size_t)m->nv) == 0);
    CHECK(cs_name2id(c, "equality", "w2") == 3);
    cs_model_free(c);
  }
  cs_model_free(m);

  /* the builder is unchanged by compiling: a second compile gives the same model */
  csModel* m2 = NULL;
  CHECK(cs_compile(b, &m2) == CS_OK);
  if (m2) {
    CHECK(m2->neq == 6);
    CHECK(m2->eq_obj1[1] == B && memcmp(m2->eq_data, saved, sizeof saved) == 0);
    cs_model_free(m2);
  }
  cs_builder_free(b);
  CHECK_MSG(live_allocs == before, "%ld allocations leaked", live_allocs - before);
}

int main(void) {
  cs_set_log(NULL);
  cs_set_allocator(count_malloc, count_free);
  test_joint_validation();
  test_equality_spec();
  test_compile_errors();
  test_eq_data();
  return cs_test_finish("test_builder_constraints");
}
