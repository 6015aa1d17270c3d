/* Per-contact bisection (paper 001, RaiSim; docs/solvers.md and docs/solvers/bisection.md).

   Single contact (Algorithm 1). On the slip ellipse (the plane v_N = 0 cut with the cone's
   boundary) lambda = r (1/mu, cos t, sin t) with r from eq. (14); the energy E of eq. (12)
   is minimised over the angle t by bisection on the sign of dE/dt, computed with the hybrid
   quantities of eq. (16): v_T = Gbar lambda_T + cbar (v_N = 0 built in), dotted with the
   unnormalised tangent eta = grad h1 x grad h2 of eq. (10). Both factors are affine in
   (cos t, sin t) once multiplied by the positive denominator D of eq. (14), so
   D (dE/dlambda . eta) is expanded once per contact into a quadratic form in (cos t, sin t)
   and each step costs a handful of flops: no r, no lambda_N, no normalisation.

   Angles are carried as unit vectors (cos t, sin t), never as t: the atan2 guess of the
   paper is lambda^{v=0}_T / |lambda^{v=0}_T|; a step of the incremental stepping is a
   rotation by alpha, whose cosine and sine come from a table while alpha = beta1 beta3^k
   (the common case) and from the half-angle formula after a shrink by beta2 = 1/2; a
   bisection midpoint is the rotation of one end by half the bracket, whose cosine and sine
   again follow by the half-angle formula. The search therefore calls no trigonometric
   function (the golden-section search of cs_solver_single.c, which must evaluate the energy
   at arbitrary angles, calls cos and sin at every step), and the bisection's choice of the
   half bracket is a branch-free select.

   Where the paper is ambiguous or wrong, this file decides (each is repeated where it acts):
   - Algorithm 1, line 13 reads "if grad h2 . (lambda - lambda^{v=0}) < 0 then reject". With
     the paper's h2 (negative inside the cone) grad h2 is the outward normal, and a boundary
     point is in line of sight of the outer point lambda^{v=0} iff grad h2 . (lambda -
     lambda^{v=0}) <= 0: the printed test would reject the initial guess itself. The sign
     is flipped here; on the ellipse the test reduces to u . lambda^{v=0}_T >= mu
     lambda^{v=0}_N with u = (cos t, sin t), independent of r.
   - The sign of eta is fixed so that dE/dt, not an arbitrary multiple, is what is
     bisected (the cross product of eq. (10) points along +t when r > 0).
   - The stepping keeps |t - t0| < pi (the line-of-sight arc is symmetric about t0 and at
     most 2 pi wide), and gives up after 200 evaluations; the bisection stops at the paper's
     impulse interval |lambda^p - lambda| < tol and returns the lambda of the bracket's
     midpoint.
   - Where the bracket is sought (not the paper's, which only asks for one): Newton steps on
     the sign function from the guess predict the root, and one or two evaluations close a
     bracket narrower than the interval around the prediction; the paper's stepping
     (beta1 1e-2, beta3 1.3) runs only when that fails (slip_search). Same root, same
     stop test; 3.7 evaluations per slip on the test's random problems where the stepping
     takes 17, 4.4 where it takes 21.5 on the recorded ANYmal slips (bench single-contact).
   - Multi-contact: the search starts from the contact's current impulse direction when it
     is admissible (the last sweep's answer; the warm start in the first sweep), else from
     the atan2 guess.
   - A rank-deficient G_ii is solved in its range space (csi_single_reduced).

   Multi-contact (Algorithm 2): block SOR over the contacts with the velocity v = G lambda +
   g kept up to date (as cs_solver_pgs.c); c_i = v_i - G_ii lambda_i; alpha 1 decaying by
   gamma 0.99 per sweep towards alpha_min 0.7. The paper leaves the contacts' order open: here
   each solve sweeps them by ascending tangential speed of the warm start, slipping contacts
   last (csi_bis_order). Stop test: the paper's own, the sum over the
   contacts of the exact violations of the model's conditions (bis_violation); so that
   it can be met, each contact's search is run to a tenth of the sweep's tolerance (in
   impulse and in the friction law) instead of the paper's fixed 1e-6 N s.

   The de Saxce variant (bisection_desaxce) targets the NCP: c_N + mu |v_T| in the case test
   and the slip solve, with v_T the contact's velocity after its solve; that makes the
   slipping contact's problem Coulomb's root on the same ellipse (see
   csi_bisection_coulomb_single in cs_solver_bisection.h), found by the same search.

   Blocks (unilateral, box and free rows after the contacts, cs_block.h): after each sweep of
   the contacts, one exact Gauss-Seidel pass over the blocks (bis_blocks_pass); the stop test
   adds the blocks' largest residual; the extrapolation projects their impulses onto their
   sets; the active-set correction takes their rows into its system
   (act_classify_rows). G's leading dimension is the problem's rows, 3nc + the blocks'.

   bisection_paper (at the end of the file): Algorithms 1 and 2 as printed, none of the
   accelerations, guards and fall-backs of `bisection`. */
#include "solvers/cs_solver_bisection.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "constraint/cs_block.h"
#include "constraint/cs_contact_cone.h"
#include "math/cs_math.h"
#include "solvers/cs_solver.h"

/* Paper 001, Sec. V-C: relaxation alpha = 1, decay gamma = 0.99, alpha_min = 0.7. */
#define BIS_ALPHA0 1.0
#define BIS_GAMMA 0.99
#define BIS_ALPHA_MIN 0.7
/* Stepping constants of the public re-implementation named in docs/solvers/bisection.md. */
#define BIS_BETA1 1e-2
#define BIS_BETA2 0.5
#define BIS_BETA3 1.3
/* Evaluations after which the search returns what it has (never reached in the tests). */
#define BIS_MAXEVAL 200
#define PI 3.14159265358979323846

/* cos and sin of beta1 beta3^k (k = 0, 1, ...) while below pi; printed with %.17g from
   glibc's cos and sin of the same products (alpha *= 1.3 from 1e-2). The test compares
   them with libm. */
static const double bis_rot[22][2] = {
    {0.99995000041666526, 0.0099998333341666645}, {0.99991550119003492, 0.012999633836427431},
    {0.99985719839884568, 0.016899195543321463},  {0.99975866925737933, 0.021968232626092259},
    {0.99959216236443815, 0.02855711714418455},   {0.99931078672446527, 0.037120769605845864},
    {0.99883532189330015, 0.048249349615383283},  {0.99803195767791075, 0.0627073476842782},
    {0.99667476145851974, 0.081482635399223416},  {0.99438249693534064, 0.10584634990701054},
    {0.99051255810894079, 0.1374222406617},       {0.9839837425725767, 0.17825822380149825},
    {0.97298250319096702, 0.2308788610597339},    {0.95448288968522566, 0.29826567569558082},
    {0.92348159582619371, 0.38364272724803039},   {0.87183551283326344, 0.48979877354150309},
    {0.78665964434470415, 0.61738691592830475},   {0.64860845969843295, 0.76112224117261629},
    {0.43157882253645491, 0.90207522964442777},   {0.10866106127649026, 0.99407885691340747},
    {-0.32375924907695569, 0.94613949745115589},  {-0.78323301517254895, 0.6217282717905932}};

int csi_bisection_rot_table(int k, double* c, double* s) {
  if (k < 0 || k >= 22) return 0;
  *c = bis_rot[k][0], *s = bis_rot[k][1];
  return 1;
}

/* ------------------------------------------------------------------ the 1D search
   Both models search the slip ellipse lambda = r (1/mu, u), u = (cos t, sin t),
   r = -c_N / D(u) with D(u) = G_NN/mu + a1 ux + a2 uy (eq. 14; r > 0 <=> D > 0), and both
   signs are quadratic forms in u built from D v_T = P u + q, v_T = Gbar lambda_T + cbar the
   hybrid tangential velocity of eq. (16) (v_N = 0 built in), P = -c_N Gbar + cbar a_T^T,
   q = (G_NN/mu) cbar:
   - paper 001 (energy stationarity): D (dE/dlambda . eta) = (P u + q) . eta_T, with
     eta_T = (-G_NN uy - mu a2, G_NN ux + mu a1) the tangential part of grad h1 x grad h2
     (eq. 10, grad h2 ~ (-mu, u) with the factor 2 r > 0 divided out; this orientation is
     +t, so its sign is that of dE/dt);
   - Coulomb (de Saxce variant): D (u x v_T) = u x (P u + q), the sign of dE/dt for the
     energy of the problem shifted by mu |v_T|.
   Expanded once per contact, each is u^T A u + l . u + k0: five multiplications a step. */
typedef struct Search {
  int coulomb;
  double mu, imu;
  double lox, loy, mul0n;           /* line of sight: u . lambda^{v=0}_T >= mu lambda^{v=0}_N */
  double axx, axy, ayy, lx, ly, k0; /* the sign: u^T A u + l . u + k0 */
  double dn, a1, a2, mcn;           /* D(u) = dn + a1 ux + a2 uy > 0; r = mcn / D */
} Search;

static inline void search_init(Search* q, const csiSlip* s, int coulomb) {
  double mu = s->mu;
  q->coulomb = coulomb;
  q->mu = mu, q->imu = 1.0 / mu;
  q->lox = s->l0x, q->loy = s->l0y, q->mul0n = mu * s->l0n;
  /* eq. (16): Gbar = G_T,T - G_T,N G_N,T / G_NN (the Schur complement), cbar = c_T -
     G_T,N c_N / G_NN */
  double a0 = s->g00, a1 = s->g01, a2 = s->g02, ia0 = 1.0 / a0, mcn = -s->c0;
  double gb11 = s->g11 - a1 * a1 * ia0, gb12 = s->g12 - a1 * a2 * ia0;
  double gb22 = s->g22 - a2 * a2 * ia0;
  double cb1 = s->c1 - a1 * s->c0 * ia0, cb2 = s->c2 - a2 * s->c0 * ia0;
  double p11 = mcn * gb11 + cb1 * a1, p12 = mcn * gb12 + cb1 * a2;
  double p21 = mcn * gb12 + cb2 * a1, p22 = mcn * gb22 + cb2 * a2;
  double dn = a0 * q->imu, q1 = dn * cb1, q2 = dn * cb2;
  if (!coulomb) {
    double h1 = -mu * a2, h2 = mu * a1;
    q->axx = a0 * p21, q->ayy = -a0 * p12, q->axy = a0 * (p22 - p11);
    q->lx = p11 * h1 + p21 * h2 + q2 * a0;
    q->ly = p12 * h1 + p22 * h2 - q1 * a0;
    q->k0 = q1 * h1 + q2 * h2;
  } else {
    q->axx = p21, q->ayy = -p12, q->axy = p22 - p11;
    q->lx = q2, q->ly = -q1, q->k0 = 0;
  }
  q->dn = dn, q->a1 = a1, q->a2 = a2, q->mcn = mcn;
}

/* At u = (cos t, sin t), a positive multiple of dE/dt (paper's model) or of u x v_T
   (Coulomb); D > 0 there. */
static inline double search_grad(const Search* q, double ux, double uy) {
  return ux * (q->axx * ux + q->axy * uy + q->lx) + uy * (q->ayy * uy + q->ly) + q->k0;
}

/* D at u, the denominator of eq. (14): r = mcn / D (r > 0 where D > 0). */
static inline double search_den(const Search* q, double ux, double uy) {
  return q->dn + q->a1 * ux + q->a2 * uy;
}

/* r at u, or -1 outside the arc where r > 0. */
static inline double search_radius(const Search* q, double ux, double uy) {
  double d = search_den(q, ux, uy);
  return d > 0 ? q->mcn / d : -1.0;
}

/* Admissible: r > 0 and, for paper 001's energy, in line of sight of lambda^{v=0} (the
   corrected test of Algorithm 1, line 13). Coulomb's root need not be in sight of the
   unshifted lambda^{v=0}, so that model only asks r > 0. */
static inline int search_ok(const Search* q, double ux, double uy) {
  if (!q->coulomb && ux * q->lox + uy * q->loy < q->mul0n) return 0;
  return search_den(q, ux, uy) > 0;
}

static inline void search_lambda(const Search* q, double r, double ux, double uy,
                                 double lambda[3]) {
  lambda[0] = r * q->imu, lambda[1] = r * ux, lambda[2] = r * uy;
}

/* The model's friction-law violation at u from the sign function's value f there (m/s):
   paper 001 |v . eta| / |eta| with f = mu D^2 (v_T . eta_T) and eta = (-k/mu, -uy - k ux,
   ux - k uy), k = (a2 ux - a1 uy) / D; Coulomb |u x v_T| = |f| / D. The multi-contact stop
   test sums these (bis_violation), so there the search also asks both ends of its
   bracket to pass the sweep's tolerance, not only the impulse interval. */
static inline double search_viol(const Search* q, double ux, double uy, double f) {
  double d = search_den(q, ux, uy);
  if (q->coulomb) return fabs(f) / d;
  double k = (q->a2 * ux - q->a1 * uy) / d;
  return fabs(f) / (q->mu * d * d * sqrt(1 + k * k * (1 + q->imu * q->imu)));
}

/* A closing bracket [a, b] (D there da, db; the sign function fa, fb) is the answer's: its
   ends less than tol apart in impulse, |lambda(a) - lambda(b)| < tol with lambda = mcn
   (1 / mu, u) / D(u), multiplied through by (da db)^2 (no division), and for vtol both ends'
   friction-law violations below it. */
static inline int bracket_done(const Search* q, double ax, double ay, double da, double fa,
                               double bx, double by, double db, double fb, double tol,
                               double vtol) {
  double en = (db - da) * q->imu, ex = db * ax - da * bx, ey = db * ay - da * by;
  double dadb = da * db;
  return q->mcn * q->mcn * (en * en + ex * ex + ey * ey) < tol * tol * (dadb * dadb) &&
         (vtol == INFINITY ||
          (search_viol(q, ax, ay, fa) <= vtol && search_viol(q, bx, by, fb) <= vtol));
}

/* c ? a : b without a branch (bit masks: exact for any a, b). In the bisection the choice
   is a coin toss that no predictor learns, and written as a ternary GCC makes it a branch:
   on the recorded ANYmal slips this select halves the time of a solve. */
static inline double select_d(int c, double a, double b) {
  uint64_t ia, ib, m = (uint64_t)0 - (uint64_t)(c != 0);
  memcpy(&ia, &a, sizeof ia);
  memcpy(&ib, &b, sizeof ib);
  uint64_t r = (ia & m) | (ib & ~m);
  double o;
  memcpy(&o, &r, sizeof o);
  return o;
}

/* cos and sin of half an angle in [0, pi] from its own. */
static inline void half_angle(double* c, double* s) {
  double ch = sqrt(0.5 + 0.5 * *c);
  double sh = *c < 0 ? sqrt(0.5 - 0.5 * *c) : *s / (2 * ch);
  *c = ch, *s = sh;
}

/* The admissible direction of least energy (E = 1/2 l^T G l + c^T l) among 64: a start when
   the guess is not admissible (rounding only, see below). */
static CSI_INLINE void search_scan(const Search* q, const double G[9], const double c[3],
                                   double* ux, double* uy) {
  double best = INFINITY;
  for (int k = 0; k < 64; k++) {
    double t = 2 * PI * (k + 0.5) / 64, cx = cos(t), cy = sin(t);
    if (!search_ok(q, cx, cy)) continue;
    double r = search_radius(q, cx, cy), l[3];
    search_lambda(q, r, cx, cy, l);
    double e = 0.5 * (l[0] * (G[0] * l[0] + G[1] * l[1] + G[2] * l[2]) +
                      l[1] * (G[1] * l[0] + G[4] * l[1] + G[5] * l[2]) +
                      l[2] * (G[2] * l[0] + G[5] * l[1] + G[8] * l[2])) +
               c[0] * l[0] + c[1] * l[1] + c[2] * l[2];
    if (e < best) best = e, *ux = cx, *uy = cy;
  }
}

/* The bisection (Algorithm 1, lines 24-33) on the bracket from a = (ux, uy), where the sign
   function has the sign of f0, to b = a rotated by sg times the bracket's angle, whose cos
   and sin are (ca, sa): the midpoint is a rotated by half the bracket. Stops at the impulse
   interval tol between the ends (and, if vtol is finite, the friction-law violation at both
   ends below vtol); lambda receives the last midpoint. */
static inline void slip_bisect(const Search* q, double ux, double uy, double bx, double by,
                               double sg, double f0, double ca, double sa, double tol, double vtol,
                               int* nevp, double lambda[3]) {
  int nev = *nevp;
  double ra = search_radius(q, ux, uy), rb = search_radius(q, bx, by);
  double ch = ca, sh = sa;
  half_angle(&ch, &sh);
  double tol2 = tol * tol, imu = q->imu;
  for (;;) {
    double dn = (ra - rb) * imu, dx = ra * ux - rb * bx, dy = ra * uy - rb * by;
    if (nev >= BIS_MAXEVAL) break;
    if (dn * dn + dx * dx + dy * dy < tol2 &&
        (vtol == INFINITY || (search_viol(q, ux, uy, search_grad(q, ux, uy)) <= vtol &&
                              search_viol(q, bx, by, search_grad(q, bx, by)) <= vtol)))
      break;
    double sx = sg * sh;
    double mx = ch * ux - sx * uy, my = sx * ux + ch * uy;
    double fm = search_grad(q, mx, my);
    double rm = search_radius(q, mx, my);
    nev++;
    int same = fm * f0 > 0;
    ux = select_d(same, mx, ux), uy = select_d(same, my, uy);
    ra = select_d(same, rm, ra);
    bx = select_d(same, bx, mx), by = select_d(same, by, my);
    rb = select_d(same, rb, rm);
    half_angle(&ch, &sh);
  }
  double sx = sg * sh;
  double mx = ch * ux - sx * uy, my = sx * ux + ch * uy;
  double rm = search_radius(q, mx, my);
  if (!(rm > 0)) rm = ra;
  search_lambda(q, rm, mx, my, lambda);
  *nevp = nev;
}

/* The incremental stepping of Algorithm 1 (lines 6-23) from the admissible direction
   (ux, uy), where the sign function is f0 != 0, then the bisection. */
static inline void slip_stepping(const Search* q, double ux, double uy, double f0, double tol,
                                 double vtol, int* nevp, double lambda[3]) {
  int nev = *nevp;
  /* alpha = -beta1 sgn(D0), grown by beta3 while the sign of the gradient stays, shrunk by
     beta2 after a step out of the admissible arc. */
  double sg = f0 > 0 ? -1.0 : 1.0;   /* direction of descent in t */
  double alpha = BIS_BETA1, phi = 0; /* |step| and |t - t0| */
  int k = 0, shrunk = 0;
  double ca = bis_rot[0][0], sa = bis_rot[0][1];
  while (nev < BIS_MAXEVAL && alpha > 1e-15) {
    if (phi + alpha < PI) {
      double cx = ca * ux - sg * sa * uy, cy = sg * sa * ux + ca * uy;
      if (search_ok(q, cx, cy)) {
        double fc = search_grad(q, cx, cy);
        nev++;
        if (fc * f0 > 0) { /* no zero crossing yet: move on and grow the step */
          ux = cx, uy = cy, phi += alpha;
          alpha *= BIS_BETA3;
          k++;
          if (!shrunk && k < 22) {
            ca = bis_rot[k][0], sa = bis_rot[k][1];
          } else {
            ca = cos(alpha), sa = sin(alpha);
          }
          continue;
        }
        *nevp = nev;
        slip_bisect(q, ux, uy, cx, cy, sg, f0, ca, sa, tol, vtol, nevp, lambda);
        return;
      }
    }
    alpha *= BIS_BETA2; /* back to the old angle with a shorter step */
    shrunk = 1;
    half_angle(&ca, &sa);
  }
  search_lambda(q, search_radius(q, ux, uy), ux, uy, lambda);
  *nevp = nev;
}

/* d/dt of search_grad along u = (cos t, sin t). */
static inline double search_dgrad(const Search* q, double ux, double uy) {
  return 2 * (q->ayy - q->axx) * ux * uy + q->axy * (ux * ux - uy * uy) - q->lx * uy + q->ly * ux;
}

/* d^2/dt^2 of search_grad along u = (cos t, sin t). */
static inline double search_d2grad(const Search* q, double ux, double uy) {
  return 2 * (q->ayy - q->axx) * (ux * ux - uy * uy) - 4 * q->axy * ux * uy - q->lx * ux -
         q->ly * uy;
}

/* d^3/dt^3 of search_grad along u = (cos t, sin t). */
static inline double search_d3grad(const Search* q, double ux, double uy) {
  return -8 * (q->ayy - q->axx) * ux * uy - 4 * q->axy * (ux * ux - uy * uy) + q->lx * uy -
         q->ly * ux;
}

/* u rotated by the angle 2 atan(s) (cos and sin from the tangent of the half angle: no
   square root, no trigonometry). */
static inline void rot_half_tan(double s, double* ux, double* uy) {
  double is = 1.0 / (1 + s * s), c = (1 - s * s) * is, sn = 2 * s * is;
  double x = *ux, y = *uy;
  *ux = c * x - sn * y, *uy = sn * x + c * y;
}

/* What a slip search's stages share: the current direction u = (ux, uy), admissible, the
   sign function f there, and the evaluations so far */
typedef struct {
  double ux, uy, f;
  int nev;
} slipPt;

/* A stage's outcome: lambda holds the answer; go on with the next Newton step; fall back to
   the paper's stepping from the current point; (the two-end bracket) not tried */
enum { SLIP_DONE, SLIP_NEXT, SLIP_STEPPING, SLIP_UNTRIED };

/* The start: an admissible direction from the guess (the scan if the guess is not, which is
   rounding only: the ray from lambda^{T=0}, inside the ellipse, through lambda^{v=0} leaves
   the ellipse at t0, in sight of lambda^{v=0} and with r > 0) and f there. Returns 1 with
   lambda set when the search is over already: stationary at the guess, or nothing
   admissible. */
static CSI_INLINE int slip_start(const Search* q, const double G[9], const double c[3], slipPt* s,
                                 double lambda[3]) {
  if (!search_ok(q, s->ux, s->uy)) {
    search_scan(q, G, c, &s->ux, &s->uy);
    s->nev += 64;
  }
  s->f = search_grad(q, s->ux, s->uy);
  if (s->f == 0 || !search_ok(q, s->ux, s->uy)) {
    double r = search_radius(q, s->ux, s->uy);
    if (!(r > 0)) r = 0;
    search_lambda(q, r, s->ux, s->uy, lambda);
    return 1;
  }
  return 0;
}

/* For vtol, the bound on the closing bracket's half-width that keeps f' h below vtol / 2 in
   violation (hvf / f'), from the guess; 0 without vtol */
static CSI_INLINE double newton_hvf(const Search* q, double ux, double uy, double vtol) {
  if (vtol == INFINITY) return 0;
  double d = search_den(q, ux, uy);
  double kk = (q->a2 * ux - q->a1 * uy) / d;
  double w = sqrt(1 + kk * kk * (1 + q->imu * q->imu));
  return 0.5 * vtol * (q->coulomb ? d : q->mu * d * d * w);
}

/* One Newton step's numbers at the current point */
typedef struct {
  double fp, fpp, ffpp, fp2; /* f', f'', f f'', f'^2 */
  double Nh, Dh;             /* the step is 2 atan(Nh / Dh) */
  int near;                  /* |del| <= 0.1: the closing bracket is tried */
  double d, hk;              /* near: D at u, the closing bracket's half-width */
} newtonStep;

/* Halley's step where its correction is moderate (|f f''| <= f'^2), else Newton's: the step
   is 2 atan(Nh / Dh) with Nh = -f f', Dh = 2 f'^2 - f f'' (Newton: f'' = 0); Dh >= f'^2 > 0,
   so the tests on del = 2 Nh / Dh (~ the step's angle) are made without dividing. Once
   |del| <= 0.1, the closing bracket's half-width hk (<= 0.05; see slip_newton). */
static CSI_INLINE void newton_terms(const Search* q, const slipPt* s, double fp, double ht,
                                    double skap, double hvf, newtonStep* t) {
  double f = s->f;
  double fpp = search_d2grad(q, s->ux, s->uy);
  double ffpp = f * fpp, fp2 = fp * fp;
  double Nh = -f * fp, Dh = 2 * fp2 - (fabs(ffpp) <= fp2 ? ffpp : 0);
  int near = 20 * fabs(Nh) <= Dh;
  double d = 0, hk = 0;
  if (near) {
    d = search_den(q, s->ux, s->uy);
    double e = q->a2 * s->ux - q->a1 * s->uy;
    hk = ht * d * d / (q->mcn * (d + fabs(e) * skap));
    if (hvf > 0 && hvf < hk * fp) hk = hvf / fp;
    if (hk > 0.05) hk = 0.05;
  }
  t->fp = fp, t->fpp = fpp, t->ffpp = ffpp, t->fp2 = fp2;
  t->Nh = Nh, t->Dh = Dh, t->near = near, t->d = d, t->hk = hk;
}

/* The step itself is below hk: one evaluation past the predicted root closes the bracket
   [u, c], c = u rotated by del + hk sgn(del) = 2 st, st = Nt / Dt (Nt = 2 Nh + hk sgn(Nh) Dh,
   Dt = 2 Dh), i.e. by 2 atan(st) up to O(st^3). The bracket is tol / 2 wide by prediction:
   checked once, and its midpoint is the answer; else the bisection proper on it. Without a
   sign change (or c not admissible), the paper's stepping. */
static CSI_INLINE int newton_close(const Search* q, slipPt* s, const newtonStep* t, double tol,
                                   double vtol, double lambda[3]) {
  double ux = s->ux, uy = s->uy, f = s->f, Nh = t->Nh, Dh = t->Dh, mcn = q->mcn;
  double Nt = 2 * Nh + (Nh > 0 ? t->hk : -t->hk) * Dh, Dt = 2 * Dh;
  double n2 = Nt * Nt, d2 = Dt * Dt, iz = 1.0 / (d2 + n2);
  double cc = (d2 - n2) * iz, ss = 2 * Nt * Dt * iz;
  double cx = cc * ux - ss * uy, cy = ss * ux + cc * uy;
  if (!search_ok(q, cx, cy)) return SLIP_STEPPING;
  double fc = search_grad(q, cx, cy);
  s->nev++;
  if (fc * f > 0) {
    s->ux = cx, s->uy = cy, s->f = fc;
    return SLIP_STEPPING;
  }
  if (fc == 0) {
    search_lambda(q, search_radius(q, cx, cy), cx, cy, lambda);
    return SLIP_DONE;
  }
  /* The check: |lambda(u) - lambda(c)| < tol with lambda = mcn (1 / mu, u) / D(u),
     multiplied through by (D(u) D(c))^2 (no division). The midpoint m is u rotated by
     2 atan(Nt / (2 Dt)): unnormalised wm = (Dm^2 - Nt^2) u + 2 Nt Dm u^perp,
     |wm| = Dm^2 + Nt^2 = sm, Dm = 2 Dt, and lambda(m) = mcn (sm / mu, wm) / D(wm) with
     D(wm) = dn sm + a . wm: one division. */
  double Dm = 2 * Dt, nm2 = Nt * Nt, dm2 = Dm * Dm, sm = dm2 + nm2;
  double cm = dm2 - nm2, snm = 2 * Nt * Dm;
  double wx = cm * ux - snm * uy, wy = snm * ux + cm * uy;
  double dm = q->dn * sm + q->a1 * wx + q->a2 * wy;
  if (dm > 0 && bracket_done(q, ux, uy, t->d, f, cx, cy, search_den(q, cx, cy), fc, tol, vtol)) {
    double rw = mcn / dm;
    lambda[0] = rw * sm * q->imu, lambda[1] = rw * wx, lambda[2] = rw * wy;
    return SLIP_DONE;
  }
  double st = Nt / Dt, is = 1.0 / (1 + st * st);
  slip_bisect(q, ux, uy, cx, cy, st > 0 ? 1.0 : -1.0, f, (1 - st * st) * is, 2 * fabs(st) * is, tol,
              vtol, &s->nev, lambda);
  return SLIP_DONE;
}

/* Halley's step (error ~ K del^3) landing within hk of the root at c, by the estimate
   K = |f''^2 / (4 f'^2) - f''' / (6 f')| + 1/12 (the last term: 2 atan(del / 2) is not del):
   the bracket [c - hk, c + hk] around the prediction is evaluated at both ends at once, and
   if the sign changes there, c is the answer (the bracket is narrower than the interval).
   Else the search goes on from the end nearer the root. SLIP_UNTRIED when the estimate does
   not promise the landing. */
static CSI_INLINE int newton_land(const Search* q, slipPt* s, const newtonStep* t, double cx,
                                  double cy, double tol, double vtol, double lambda[3]) {
  double fp = t->fp, fp2 = t->fp2, fpp = t->fpp, Nh = t->Nh, Dh = t->Dh, hk = t->hk;
  if (!(t->near && Dh == 2 * fp2 - t->ffpp && hk <= 1e-3)) return SLIP_UNTRIED;
  /* K |del|^3 <= hk, multiplied through by 12 f'^2 Dh^3 / 8 (on the recorded ANYmal slips,
     70 of 96,600 such brackets missed the root; the search then goes on) */
  double f3 = search_d3grad(q, s->ux, s->uy), an = fabs(Nh);
  if (!((fabs(3 * fpp * fpp - 2 * fp * f3) + fp2) * (an * an * an) <=
        1.5 * hk * fp2 * (Dh * Dh * Dh)))
    return SLIP_UNTRIED;
  if (!search_ok(q, cx, cy)) return SLIP_STEPPING;
  /* cos and sin of 2 atan(tau), tau = hk / 2 <= 5e-4: the series in tau^2 to O(tau^6)
     (below 1e-19, no division) */
  double tau = 0.5 * hk, t2 = tau * tau;
  double ch = 1 - 2 * t2 + 2 * t2 * t2, sh = 2 * tau * (1 - t2 + t2 * t2);
  double ax = ch * cx + sh * cy, ay = ch * cy - sh * cx; /* c rotated by -hk */
  double bx = ch * cx - sh * cy, by = ch * cy + sh * cx; /* c rotated by +hk */
  if (!search_ok(q, ax, ay) || !search_ok(q, bx, by)) return SLIP_STEPPING;
  double fa = search_grad(q, ax, ay), fb = search_grad(q, bx, by);
  s->nev += 2;
  if (fa * fb <= 0 && bracket_done(q, ax, ay, search_den(q, ax, ay), fa, bx, by,
                                   search_den(q, bx, by), fb, tol, vtol)) {
    search_lambda(q, search_radius(q, cx, cy), cx, cy, lambda);
    return SLIP_DONE;
  }
  /* f increases through the root (f' > 0): it lies before a if f(a) > 0 */
  if (fa > 0) {
    s->ux = ax, s->uy = ay, s->f = fa;
  } else {
    s->ux = bx, s->uy = by, s->f = fb;
  }
  if (s->f == 0) {
    search_lambda(q, search_radius(q, s->ux, s->uy), s->ux, s->uy, lambda);
    return SLIP_DONE;
  }
  return SLIP_NEXT;
}

/* A Newton (Halley) step that does not close the bracket: rotation by 2 atan(Nh / Dh) with
   one division when |del| <= 0.5 (and the landing bracket around it, if promised), else by
   2 atan(+-0.25); the search moves there */
static CSI_INLINE int newton_advance(const Search* q, slipPt* s, const newtonStep* t, double tol,
                                     double vtol, double lambda[3]) {
  double Nh = t->Nh, Dh = t->Dh;
  double cx = s->ux, cy = s->uy;
  if (4 * fabs(Nh) <= Dh) {
    double n2 = Nh * Nh, d2 = Dh * Dh, id = 1.0 / (d2 + n2);
    double co = (d2 - n2) * id, sn = 2 * Nh * Dh * id;
    cx = co * s->ux - sn * s->uy, cy = sn * s->ux + co * s->uy;
    int r = newton_land(q, s, t, cx, cy, tol, vtol, lambda);
    if (r != SLIP_UNTRIED) return r;
  } else {
    rot_half_tan(Nh > 0 ? 0.25 : -0.25, &cx, &cy);
  }
  if (!search_ok(q, cx, cy)) return SLIP_STEPPING;
  double fc = search_grad(q, cx, cy);
  s->nev++;
  s->ux = cx, s->uy = cy, s->f = fc;
  if (s->f == 0) {
    search_lambda(q, search_radius(q, s->ux, s->uy), s->ux, s->uy, lambda);
    return SLIP_DONE;
  }
  return SLIP_NEXT;
}

/* Newton (Halley) steps while f' > 0, at most 6: SLIP_DONE, or SLIP_STEPPING from the last
   admissible point. Half-width h of the closing bracket at the current point u: its ends
   tol / 2 apart in impulse, |d lambda / dt| = r w with r = mcn / d, w = sqrt(1 + e^2 kap /
   d^2), e = a2 ux - a1 uy, kap = 1 + 1 / mu^2; h = ht d / (mcn w), ht = 0.4 tol (ends at most
   0.8 tol apart), is bounded below, without a square root per step, by
   ht d^2 / (mcn (d + |e| sqrt(kap))) (w <= 1 + |e| sqrt(kap) / d): at most sqrt(2) narrower,
   one division per step. Computed at each step (not once at the guess, where r w can differ
   by more than 2 from the root's, as it did for 17 % of the recorded ANYmal slips, whose
   closing check then failed). For vtol, f' h is also kept below vtol / 2 (newton_hvf). */
static CSI_INLINE int slip_newton(const Search* q, slipPt* s, double tol, double vtol,
                                  double lambda[3]) {
  double ht = 0.4 * tol, skap = sqrt(1 + q->imu * q->imu);
  double hvf = newton_hvf(q, s->ux, s->uy, vtol);
  for (int k = 0; k < 6; k++) {
    double fp = search_dgrad(q, s->ux, s->uy);
    if (!(fp > 0)) break;
    newtonStep t;
    newton_terms(q, s, fp, ht, skap, hvf, &t);
    int r = t.near && 2 * fabs(t.Nh) <= t.hk * t.Dh ? newton_close(q, s, &t, tol, vtol, lambda)
                                                    : newton_advance(q, s, &t, tol, vtol, lambda);
    if (r != SLIP_NEXT) return r;
  }
  return SLIP_STEPPING;
}

/* Algorithm 1 from the direction (ux, uy) (the atan2 guess, or a better one). The paper
   stops at the impulse interval tol; vtol (+inf for the paper's single-contact solve) also
   asks the friction-law violation at both ends of the bracket to be below it (the
   multi-contact sweep's need).

   The bracket is first sought where Newton's method on the sign function predicts the
   root (the stepping of the paper only sets where the bisection starts): from the guess,
   Newton (Halley) steps t <- t - f / f' while f' > 0 (E convex there, so the root ahead is
   the minimum the stepping would reach) until the root is predicted within the half-width h
   of a bracket whose ends are less than tol apart in impulse (h from the current point;
   and whose friction-law violations are below vtol); then the bracket's end(s) not yet
   evaluated are: one end past the predicted root when the step itself is below h (the
   current point is the other end: newton_close), else, when Halley's step is predicted to
   land within h of the root, both ends t* +- h around its landing point t* at once (two
   independent evaluations, one round of the search instead of two: newton_land). If the
   sign changes between them, that is the bracket, already narrower than the paper's
   interval (checked), and the answer is its midpoint, as the bisection's. Anything else
   (f' <= 0, a step out of the admissible arc, no sign change past the step, 6 steps) falls
   back to the paper's stepping and bisection from the last admissible point. The answer is
   the same root either way, to the same interval. No division or square root is spent on
   the tests: they are multiplied through by the (positive) denominators. */
CSI_HOT static inline void slip_search(const Search* q, const double G[9], const double c[3],
                                       double ux, double uy, double tol, double vtol, int newton,
                                       double lambda[3], int* steps) {
  slipPt s = {ux, uy, 0, 1};
  int done = slip_start(q, G, c, &s, lambda);
  if (!done && newton) done = slip_newton(q, &s, tol, vtol, lambda) == SLIP_DONE;
  if (!done) slip_stepping(q, s.ux, s.uy, s.f, tol, vtol, &s.nev, lambda);
  if (steps) *steps = s.nev;
}

/* One contact: the case, and for a slip the search from the atan2 guess or, if guess is not
   NULL and its tangential direction is admissible, from that direction (the multi-contact
   sweep passes the contact's current impulse: the last sweep's answer). newton = 0 runs the
   paper's stepping from the guess (csi_bisection_single_paper). */
static CSI_INLINE int bis_single(const double G[9], const double c[3], double mu, int coulomb,
                                 double tol, double vtol, int newton, const double* guess,
                                 double lambda[3], int* steps, const double* kk) {
  csiSlip s; /* filled by the set-up when it returns CSI_CASE_SLIP (zeroing it costs) */
  int k = csi_single_setup_x(G, c, mu, kk, &s, lambda, steps, 1);
  if (k != CSI_CASE_SLIP) return k;
  Search q;
  search_init(&q, &s, coulomb);
  double gx = s.ux, gy = s.uy;
  if (guess) {
    double lt2 = guess[1] * guess[1] + guess[2] * guess[2];
    if (lt2 > 0) {
      double il = 1.0 / sqrt(lt2), wx = guess[1] * il, wy = guess[2] * il;
      if (search_ok(&q, wx, wy)) gx = wx, gy = wy;
    }
  }
  slip_search(&q, G, c, gx, gy, tol, vtol, newton, lambda, steps);
  return k;
}

CSI_HOT int csi_bisection_single(const double G[9], const double c[3], double mu, double tol,
                                 double lambda[3], int* steps) {
  return bis_single(G, c, mu, 0, tol, INFINITY, 1, NULL, lambda, steps, NULL);
}

int csi_bisection_single_paper(const double G[9], const double c[3], double mu, double tol,
                               double lambda[3], int* steps) {
  return bis_single(G, c, mu, 0, tol, INFINITY, 0, NULL, lambda, steps, NULL);
}

int csi_bisection_coulomb_single(const double G[9], const double c[3], double mu, double tol,
                                 double lambda[3], int* steps) {
  return bis_single(G, c, mu, 1, tol, INFINITY, 1, NULL, lambda, steps, NULL);
}

/* ------------------------------------------------------------------ rank-deficient G
   G = sum_j sigma_j u_j u_j^T over its range (rank k <= 2). v changes only through
   y = U^T lambda, so with c_r the range part of c the energy is f(y) = 1/2 sum sigma_j y_j^2
   + (U^T c) . y; the cone constrains y to the projection of K along the null space, which
   is a polyhedral cone in R^k (below); the paper's model adds the line v_N = 0 when the
   normal is in the range. The small QP is solved exactly by its active sets and lambda is
   lifted back as the impulse of least norm with that y (the null-space part does no work:
   a pinned joint takes it). */

/* Jacobi eigen-decomposition of a symmetric 3x3: w (descending), columns of V. */
static void eig3(const double G[9], double w[3], double V[9]) {
  double A[3][3], P[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) A[i][j] = 0.5 * (G[3 * i + j] + G[3 * j + i]);
  for (int sweep = 0; sweep < 50; sweep++) {
    double off = A[0][1] * A[0][1] + A[0][2] * A[0][2] + A[1][2] * A[1][2];
    double dia = A[0][0] * A[0][0] + A[1][1] * A[1][1] + A[2][2] * A[2][2];
    if (!(off > 1e-36 * dia)) break;
    for (int p = 0; p < 2; p++)
      for (int qq = p + 1; qq < 3; qq++) {
        if (A[p][qq] == 0) continue;
        double th = (A[qq][qq] - A[p][p]) / (2 * A[p][qq]);
        double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1));
        double cc = 1 / sqrt(t * t + 1), ss = t * cc;
        for (int r = 0; r < 3; r++) {
          double arp = A[r][p], arq = A[r][qq];
          A[r][p] = cc * arp - ss * arq, A[r][qq] = ss * arp + cc * arq;
        }
        for (int r = 0; r < 3; r++) {
          double apr = A[p][r], aqr = A[qq][r];
          A[p][r] = cc * apr - ss * aqr, A[qq][r] = ss * apr + cc * aqr;
        }
        for (int r = 0; r < 3; r++) {
          double vrp = P[r][p], vrq = P[r][qq];
          P[r][p] = cc * vrp - ss * vrq, P[r][qq] = ss * vrp + cc * vrq;
        }
      }
  }
  int idx[3] = {0, 1, 2};
  for (int i = 0; i < 2; i++)
    for (int j = i + 1; j < 3; j++)
      if (A[idx[j]][idx[j]] > A[idx[i]][idx[i]]) {
        int t = idx[i];
        idx[i] = idx[j], idx[j] = t;
      }
  for (int j = 0; j < 3; j++) {
    w[j] = A[idx[j]][idx[j]];
    for (int r = 0; r < 3; r++) V[3 * r + j] = P[r][idx[j]];
  }
}

static double qp_f(int k, const double* sig, const double* ch, const double* y) {
  double f = 0;
  for (int j = 0; j < k; j++) f += 0.5 * sig[j] * y[j] * y[j] + ch[j] * y[j];
  return f;
}

/* min f(y) over { h_i . y >= 0 } (nh <= 2) and, if eq, e . y = d; k = 1 or 2. */
static void qp_small(int k, const double* sig, const double* ch, int nh, double h[2][2], int eq,
                     const double* e, double d, double* y) {
  if (k == 1) {
    double t = eq && e[0] != 0 ? d / e[0] : -ch[0] / sig[0];
    for (int i = 0; i < nh; i++)
      if (h[i][0] * t < 0) t = 0;
    y[0] = t;
    return;
  }
  if (eq) {
    double ee = e[0] * e[0] + e[1] * e[1];
    if (ee > 0) {
      double ne = sqrt(ee);
      double yp[2] = {e[0] * d / ee, e[1] * d / ee}, dv[2] = {-e[1] / ne, e[0] / ne};
      double num = sig[0] * dv[0] * yp[0] + sig[1] * dv[1] * yp[1] + ch[0] * dv[0] + ch[1] * dv[1];
      double den = sig[0] * dv[0] * dv[0] + sig[1] * dv[1] * dv[1];
      double b = -num / den, lo = -INFINITY, hi = INFINITY;
      int ok = 1;
      for (int i = 0; i < nh; i++) {
        double al = h[i][0] * yp[0] + h[i][1] * yp[1], be = h[i][0] * dv[0] + h[i][1] * dv[1];
        if (be > 0) {
          if (-al / be > lo) lo = -al / be;
        } else if (be < 0) {
          if (-al / be < hi) hi = -al / be;
        } else if (al < 0) {
          ok = 0;
        }
      }
      if (ok && lo <= hi) {
        if (b < lo) b = lo;
        if (b > hi) b = hi;
        y[0] = yp[0] + b * dv[0], y[1] = yp[1] + b * dv[1];
        return;
      }
    }
    /* v_N = 0 out of reach of the cone: the least energy over the cone instead */
  }
  double yu[2] = {-ch[0] / sig[0], -ch[1] / sig[1]};
  int feas = 1;
  for (int i = 0; i < nh; i++)
    if (h[i][0] * yu[0] + h[i][1] * yu[1] < 0) feas = 0;
  if (feas) {
    y[0] = yu[0], y[1] = yu[1];
    return;
  }
  /* the optimum lies on a boundary ray of the wedge (or at its apex) */
  double best = 0;
  y[0] = y[1] = 0;
  for (int i = 0; i < nh; i++)
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      double dir[2] = {-sgn * h[i][1], sgn * h[i][0]};
      int in = 1;
      for (int j = 0; j < nh; j++)
        if (j != i && h[j][0] * dir[0] + h[j][1] * dir[1] < 0) in = 0;
      if (!in) continue;
      double den = sig[0] * dir[0] * dir[0] + sig[1] * dir[1] * dir[1];
      if (!(den > 0)) continue;
      double b = -(ch[0] * dir[0] + ch[1] * dir[1]) / den;
      if (b < 0) b = 0;
      double yc[2] = {b * dir[0], b * dir[1]};
      double f = qp_f(2, sig, ch, yc);
      if (f < best) best = f, y[0] = yc[0], y[1] = yc[1];
    }
}

/* The least-norm lambda in K with u . lambda = s (|u| = 1): it lies in the plane of e_N and
   u_T, on u's line when that is inside the cone, else on a boundary generator. */
static void lift_rank1(const double* u, double s, double mu, double lambda[3]) {
  lambda[0] = lambda[1] = lambda[2] = 0;
  if (s == 0) return;
  double ut = sqrt(u[1] * u[1] + u[2] * u[2]);
  if (mu * s * u[0] >= fabs(s) * ut) {
    lambda[0] = s * u[0], lambda[1] = s * u[1], lambda[2] = s * u[2];
    return;
  }
  if (!(ut > 0)) return;
  double best = INFINITY;
  for (int sgn = -1; sgn <= 1; sgn += 2) {
    double den = u[0] + sgn * mu * ut; /* u . (1, sgn mu u_T/|u_T|) */
    if (den == 0) continue;
    double a = s / den;
    if (a >= 0 && a < best) {
      best = a;
      lambda[0] = a, lambda[1] = a * sgn * mu * u[1] / ut, lambda[2] = a * sgn * mu * u[2] / ut;
    }
  }
}

/* The least-norm lambda = p + a w in K (p in the range, w the unit null vector). */
static void lift_rank2(const double* p, const double* w, double mu, double lambda[3]) {
  double pt = sqrt(p[1] * p[1] + p[2] * p[2]);
  lambda[0] = p[0], lambda[1] = p[1], lambda[2] = p[2];
  if (pt <= mu * p[0]) return;
  /* |p_T + a w_T|^2 - mu^2 (p_N + a w_N)^2 = A a^2 + 2 B a + C <= 0 on the upper nappe */
  double A = w[1] * w[1] + w[2] * w[2] - mu * mu * w[0] * w[0];
  double B = p[1] * w[1] + p[2] * w[2] - mu * mu * p[0] * w[0];
  double C = pt * pt - mu * mu * p[0] * p[0];
  double cand[2];
  int nc = 0;
  if (fabs(A) > 1e-14 * (fabs(B) + fabs(C) + 1e-300)) {
    double disc = B * B - A * C;
    if (disc < 0) disc = 0;
    double sq = sqrt(disc);
    /* the two roots without cancellation */
    double qv = -(B + (B >= 0 ? sq : -sq));
    cand[nc++] = qv / A;
    if (qv != 0) cand[nc++] = C / qv;
  } else if (B != 0) {
    cand[nc++] = -C / (2 * B);
  }
  double best = INFINITY, ab = 0;
  for (int i = 0; i < nc; i++) {
    double a = cand[i];
    if (p[0] + a * w[0] >= 0 && fabs(a) < best) best = fabs(a), ab = a;
  }
  if (best == INFINITY) {
    csi_project_cone(p, mu, lambda);
    return;
  }
  lambda[0] = p[0] + ab * w[0], lambda[1] = p[1] + ab * w[1], lambda[2] = p[2] + ab * w[2];
  /* rounding may leave the root a hair outside the cone */
  double lt = sqrt(lambda[1] * lambda[1] + lambda[2] * lambda[2]);
  if (lambda[0] < 0) lambda[0] = 0;
  if (lt > mu * lambda[0] && lt > 0) {
    double sc = mu * lambda[0] / lt;
    lambda[1] *= sc, lambda[2] *= sc;
  }
}

int csi_single_reduced(const double G[9], const double c[3], double mu, double lambda[3]) {
  double w[3], V[9];
  eig3(G, w, V);
  lambda[0] = lambda[1] = lambda[2] = 0;
  if (!(w[0] > 0)) return CSI_CASE_REDUCED; /* G = 0: nothing moves the contact */
  double thr = 1e-12 * w[0];
  int k = 1 + (w[1] > thr) + (w[2] > thr);
  if (k == 3) return -1;
  double u[2][3], sig[2], ch[2], e[2];
  double gnn = 0;
  for (int j = 0; j < k; j++) {
    for (int r = 0; r < 3; r++) u[j][r] = V[3 * r + j];
    sig[j] = w[j];
    ch[j] = u[j][0] * c[0] + u[j][1] * c[1] + u[j][2] * c[2];
    e[j] = sig[j] * u[j][0]; /* v_N = c_N + e . y */
    gnn += sig[j] * u[j][0] * u[j][0];
  }
  /* The contact closes (c_N <= 0): v_N = 0 when the range reaches the normal direction;
     else v_N is what it is and only the energy is left to minimise. */
  int eq = gnn > thr;
  double h[2][2] = {{0, 0}, {0, 0}};
  int nh = 0;
  if (k == 1) {
    /* u . K: [0, inf) if u in K*, (-inf, 0] if -u in K*, else all of R */
    double ut = sqrt(u[0][1] * u[0][1] + u[0][2] * u[0][2]);
    if (u[0][0] >= mu * ut)
      h[nh++][0] = 1;
    else if (-u[0][0] >= mu * ut)
      h[nh++][0] = -1;
  } else {
    /* The projection of K along the null vector n: y is feasible iff
       max_a mu (p_N + a n_N) - |p_T + a n_T| >= 0 with p = U y, which is
       mu p_N - kappa p_par - sqrt(1 - kappa^2) |p_perp| >= 0 (kappa = mu n_N / |n_T|,
       p_par and p_perp the components of p_T along and across n_T): two half-planes.
       When mu |n_N| > |n_T| the null line pierces the cone and every y is feasible. */
    double n[3] = {V[2], V[5], V[8]};
    double nt = sqrt(n[1] * n[1] + n[2] * n[2]);
    if (nt > 0 && mu * fabs(n[0]) <= nt) {
      double wx = n[1] / nt, wy = n[2] / nt, kap = mu * n[0] / nt;
      double sk = 1 - kap * kap > 0 ? sqrt(1 - kap * kap) : 0;
      for (int j = 0; j < 2; j++) {
        double l = mu * u[j][0] - kap * (u[j][1] * wx + u[j][2] * wy);
        double m = u[j][1] * wy - u[j][2] * wx;
        h[0][j] = l - sk * m, h[1][j] = l + sk * m;
      }
      nh = 2;
    }
  }
  double y[2] = {0, 0};
  qp_small(k, sig, ch, nh, h, eq, e, -c[0], y);
  if (k == 1) {
    lift_rank1(u[0], y[0], mu, lambda);
  } else {
    double p[3], n[3] = {V[2], V[5], V[8]};
    for (int r = 0; r < 3; r++) p[r] = y[0] * u[0][r] + y[1] * u[1][r];
    lift_rank2(p, n, mu, lambda);
  }
  return CSI_CASE_REDUCED;
}

/* ------------------------------------------------------------------ multi-contact */

/* One contact's violation of the exact conditions of the solver's model, at impulse l and
   velocity v; Gi is the contact's own block (with R). The paper's stop test is the sum of
   these over the contacts, "the exact violations of the physical constraints" (Sec. V-C),
   in N s and m/s alike ("1 uNs or um/s"):
   - Signorini: the approach velocity max(0, -v_N) (m/s), a pull max(0, -lambda_N) (N s),
     and complementarity min(lambda_N, v_N) when both are positive (a pushing contact that
     separates);
   - Coulomb's cone: max(0, |lambda_T| - mu lambda_N) (N s);
   - friction, for a pushing contact (not lambda_N < v_N): it either sticks (v_T = 0) or
     slides on the cone's boundary as the model says, which for paper 001's model is
     stationarity of the energy along the slip ellipse, |v . eta| / |eta| with eta the
     ellipse's tangent at lambda (dE/dt = r v . eta), and for the de Saxce variant (the
     NCP) Coulomb's law v_T = -|v_T| lambda_T / |lambda_T|: |v_T + |v_T| lambda_T/|lambda_T||.
     The term is the smaller of the two branches' violations, min(|v_T|, (mu lambda_N -
     |lambda_T|) + slip-law violation) (N s and m/s, as the paper adds them), i.e. the min
     function of the complementarity "cone gap x slip speed", as Signorini's term above.
     (The min form matters: counting |v_T| for any lambda inside the cone by more than 1e-9
     relative is discontinuous, and a slipping contact never meets it once Algorithm 2's
     relaxation alpha < 1 has blended two boundary impulses of different directions into
     one strictly inside the cone, by a relative 1e-6 say; its |v_T| of a few cm/s then
     stays in the sum, and since the per-contact precision follows the last sweep's
     residual, the other slipping contacts are not solved finely either: 1.1 % of the drop
     task's steps fail that way. Both forms have the same zero set, the model's exact
     solutions.)
   Each term is zero at an exact solution of the model, and only there. A contact whose G_ii
   is rank-deficient (solved in its range space, where v_T != 0 at a pushing, even sticking,
   contact can be exact: the pinned joint takes the load) counts instead its distance
   |lambda* - lambda| to the exact per-contact solution lambda* given the other contacts. */
static CSI_INLINE double bis_violation(const double Gi[9], int full, const double* l,
                                       const double* v, double mu, int desaxce) {
  double g00 = Gi[0];
  if (!full) {
    double c[3], ls[3];
    for (int a = 0; a < 3; a++)
      c[a] = v[a] - (Gi[3 * a] * l[0] + Gi[3 * a + 1] * l[1] + Gi[3 * a + 2] * l[2]);
    bis_single(Gi, c, mu, desaxce, 1e-12, INFINITY, 1, NULL, ls, NULL, NULL);
    double d0 = ls[0] - l[0], d1 = ls[1] - l[1], d2 = ls[2] - l[2];
    return sqrt(d0 * d0 + d1 * d1 + d2 * d2);
  }
  double e = 0, vn = v[0], ln = l[0];
  double lt = sqrt(l[1] * l[1] + l[2] * l[2]);
  if (vn < 0) e -= vn;
  if (ln < 0) e -= ln;
  if (ln > 0 && vn > 0) e += ln < vn ? ln : vn;
  if (lt > mu * ln) e += lt - mu * ln;
  /* No friction law for a frictionless contact, nor for an opening one: separating
     (v_N > 0) with an impulse that complementarity already counts (lambda_N < v_N), e.g.
     the remainder (1 - alpha)^k lambda_N that Algorithm 2's relaxation leaves. */
  if (!(ln > 0) || !(mu > 0) || (vn > 0 && ln < vn)) return e;
  double vt = sqrt(v[1] * v[1] + v[2] * v[2]);
  double gap = mu * ln - lt;
  if (gap < 0) gap = 0;
  /* min(sl + gap, vt) is vt whenever vt <= gap (sl >= 0): a contact sticking well inside
     its cone needs no slip-law term */
  if (!(lt > 0) || vt <= gap) return e + vt;
  double ux = l[1] / lt, uy = l[2] / lt, sl;
  if (desaxce) {
    double dx = v[1] + vt * ux, dy = v[2] + vt * uy;
    sl = sqrt(dx * dx + dy * dy);
  } else {
    /* lambda(t) = r(t) (1/mu, cos t, sin t) on the plane a . lambda + c_N = 0 (a = normal row
       of G_ii): d lambda / dt ~ u' - (a . u' / a . u) u with u = (1/mu, ux, uy),
       u' = (0, -uy, ux) */
    double au = g00 / mu + Gi[1] * ux + Gi[2] * uy, aup = -Gi[1] * uy + Gi[2] * ux;
    if (!(au > 0)) return e + vt;
    double kk = aup / au;
    double t0 = -kk / mu, t1 = -uy - kk * ux, t2 = ux - kk * uy;
    double tn = sqrt(t0 * t0 + t1 * t1 + t2 * t2);
    sl = fabs(v[0] * t0 + v[1] * t1 + v[2] * t2) / tn;
  }
  sl += gap;
  return e + (sl < vt ? sl : vt);
}

/* The problem's rows (G's leading dimension): 3nc, plus the blocks' rows if any. */
static inline int bis_rows(const csContactProblem* p) {
  return p->nblock ? cs_problem_rows(p) : 3 * p->nc;
}

/* Contact i's block G_ii (+ R) into Gi (BIS_BLK), G of leading dimension n; returns 1 if it
   has full rank (the test of csi_single_classify), 0 if the reduced solve handles it. */
static inline int bis_block(const csContactProblem* p, int n, int i, double* Gi) {
  int r0 = 3 * i;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) Gi[3 * a + b] = p->G[(size_t)(r0 + a) * n + r0 + b];
  if (p->R) Gi[0] += p->R[r0], Gi[4] += p->R[r0 + 1], Gi[8] += p->R[r0 + 2];
  /* and its cofactors for the sweeps' classification (Gi + 12) */
  return csi_single_cofactors(Gi, Gi + 12);
}

/* Per contact, kept for the whole solve: G_ii, its rank flag, the search's intervals, its
   cofactors, -1 / det and det (12..19). */
enum { BIS_BLK = 20 };
/* Sweeps between two active-set corrections (bis_active_solve), from this sweep on. */
#define BIS_STICK_EVERY 8
/* Extrapolations at most per solve, and the sweeps within which the sweeps must be
   predicted to finish for a scheduled correction to be skipped (bis_extrapolate,
   bis_skip_correction). */
#define BIS_EXTRAP_MAX 4
/* Extrapolate only while the residual is above this many tolerances: near convergence the
   tail is small, and a start from an extrapolated answer needs more sweeps in the next step
   of a static problem (ANYmal hanging still: about twice the sweeps per step). */
#define BIS_XRES 2
#define BIS_SKIP 6
/* Tangential speeds below this many tolerances do not reorder the sweep (csi_bis_order). */
#define BIS_ORDER_VMIN CSI_BIS_ORDER_VMIN
/* A warm start impulse this close to its cone's boundary counts as slipping (csi_bis_order). */
#define BIS_ORDER_EDGE 0.999
/* Sweeps without progress that make a stall (bis_stall_guard). */
#define BIS_STALL 50
/* The budget guard's window (sweeps; two correction periods, so that each window holds the
   same phases of the correction cycle), see bis_budget_guard. */
#define BIS_BUDGET_WIN 16
/* The block types the solvers take (csi_blocks_supported's mask): all of them. */
#define BIS_BLOCK_TYPES ((1u << CS_CONE_UNILATERAL) | (1u << CS_CONE_BOX) | (1u << CS_CONE_FREE))
/* The blocks' Gauss-Seidel relaxation after each sweep of the contacts (bis_blocks_pass): 1,
   each block solved exactly, not blended by the sweep's alpha. The blocks' conditions given
   the contacts are a convex QP's, on which exact Gauss-Seidel converges; alpha is there for
   the slip laws' nonlinear coupling, and on the blocks it only slows the sweeps (random mixed
   problems with the correction off: 12 % more sweeps with alpha). */
#define BIS_BLOCK_OMEGA 1.0

/* v += (G + R) e_i d: the velocity change of contact i's impulse change d (G's rows r0..r0+2
   as its columns where G is symmetric, contiguous; its columns otherwise); n rows. */
static inline void bis_vupdate(const csContactProblem* p, int n, int r0, const double d[3],
                               double* restrict v) {
  const double* restrict G0 = p->G + (size_t)r0 * n;
  if (!p->asym) {
    const double* restrict G1 = G0 + n;
    const double* restrict G2 = G1 + n;
    double d0 = d[0], d1 = d[1], d2 = d[2];
    for (int c = 0; c < n; c++) v[c] += G0[c] * d0 + G1[c] * d1 + G2[c] * d2;
  } else {
    const double* Gc = p->G + r0;
    for (int c = 0; c < n; c++, Gc += n) v[c] += Gc[0] * d[0] + Gc[1] * d[1] + Gc[2] * d[2];
  }
  if (p->R) {
    for (int a = 0; a < 3; a++) v[r0 + a] += p->R[r0 + a] * d[a];
  }
}

/* Contact i's impulse lambda_i (at l = lambda + r0) changed by d, and v (n rows) with it. */
static inline void bis_move(const csContactProblem* p, int n, int r0, const double d[3], double* l,
                            double* restrict v) {
  bis_vupdate(p, n, r0, d, v);
  l[0] += d[0], l[1] += d[1], l[2] += d[2];
}

/* v += (G + R) e_r d for one block row r's impulse change d (n rows). */
static void bis_vupdate_row(const csContactProblem* p, int n, int r, double d, double* v) {
  if (!p->asym) {
    const double* Gr = p->G + (size_t)r * (size_t)n;
    for (int c = 0; c < n; c++) v[c] += Gr[c] * d;
  } else {
    const double* Gc = p->G + r;
    for (int c = 0; c < n; c++, Gc += n) v[c] += Gc[0] * d;
  }
  if (p->R) v[r] += p->R[r] * d;
}

/* The workspace, for n = nc contacts' 3nc rows plus the blocks' rows, and m = nc + the blocks'
   rows members of the active-set correction (a contact or one block row each): a head the
   whole solve keeps (v (n), the contacts' blocks, the correction's right-hand side (n) and
   its members' directions (12 each), a copy of lambda and v to go back to (2n), the last
   sweep's impulse changes (n), the sweep order's keys (nc) and the order (nc ints)), then
   the correction's n x n matrix, its columns' scales and null vectors (n + n^2), its
   offsets and pivots (n ints each) and its members' states, indices and cases (m ints
   each). The last resort (the fall-back, ncp_admm by default, after the sweeps) reuses the space
   after the head. */
static size_t bis_head_bytes(int nc, int n) {
  size_t m = (size_t)(n - 2 * nc);
  size_t b = sizeof(double) * ((size_t)(BIS_BLK + 1) * (size_t)nc + 5 * (size_t)n + 12 * m) +
             sizeof(int) * (size_t)nc;
  return (b + 63) & ~(size_t)63;
}

static size_t bis_workspace(const csContactProblem* p, const csSolverOptions* opt) {
  int nc = p->nc, n = bis_rows(p);
  size_t m = (size_t)(n - 2 * nc);
  size_t corr = sizeof(double) * (2 * (size_t)n * (size_t)n + (size_t)n) +
                sizeof(int) * (2 * (size_t)n + 3 * m);
  const csSolver* fb = cs_solver_fallback(CS_SOLVER_BISECTION, opt);
  csSolverOptions fo = *opt;
  fo.fallback = -1; /* as it is called: the chain ends with it */
  size_t admm = fb && fb->workspace_bytes ? fb->workspace_bytes(p, &fo) : 0;
  return bis_head_bytes(nc, n) + (corr > admm ? corr : admm);
}

/* The active-set correction, an acceleration of Algorithm 2 that is not in the paper. With
   each contact's case held as the last sweep left it, the contacts' conditions form a small
   smooth system: a sticking contact (impulse strictly inside its cone, full-rank G_ii) has
   v = 0 (three unknowns: its impulse change); a slipping one (on the cone's boundary,
   lambda = s (1, mu cos t, mu sin t)) has v_N = 0 and its slip law, eta(t) . v = 0 with eta
   the tangent of the conic section of its energy model (or v_T x u = 0, Coulomb's, for de
   Saxce), two unknowns s and t; a frictionless pushing one has v_N = 0 (one unknown); an
   opening or rank-deficient one is held. Newton on that system: each pass one LU solve (+
   1e-9 of its diagonal) of P G D (the conditions' rows P, the unknowns' columns D, plus the
   slip law's own derivative in t), linear in all but the slip angles. It gives the point that
   block Gauss-Seidel creeps to where such contacts are strongly coupled (two feet of one
   stance at an impact, G's condition ~1e6, the torso's corners with slipping feet, a box at
   its friction limit on three contacts: thousands of sweeps). As in an active-set method, a
   step goes as far as the first contact that would change case: a sticking impulse reaching
   its cone's boundary slips from there on, a normal impulse reaching zero is released (set
   to zero and held), and the system is solved again; a slip angle moves at most
   ACT_DTHETA per pass. The passes end when the stop test passes, the linear cases are
   solved without slips, or after ACT_PASSES. The sweeps that follow check the cases, so
   the answer at convergence is the model's. (Both the slipping contacts and their angles are
   needed: with the sticking contacts alone, the step cut at the first boundary, 1.2 % of the
   drop task's steps reach the cap of 150 sweeps; with the slip directions held fixed, a box
   at its friction limit crawls at 0.997 per sweep.)
   Block rows (problems with blocks) are members of the system one row each, by the case the
   exact solve of the row alone would give (y = lambda_r - v_r / G_rr): a unilateral row with
   y > 0 and a box row with |y| < bound have v_r = 0, a free row always; the others (y <= 0,
   at a bound) are held at their impulse. A step ends where a row's impulse reaches its set's
   boundary too (0, or the bound): the row is set there and held for the correction's other
   passes. */
enum { ACT_STICK = 0, ACT_SLIP = 1, ACT_NORMAL = 2, ACT_HELD = 3, ACT_ROW = 4 };
/* Passes of one correction at most. */
enum { ACT_PASSES = 6 };
/* what the correction does with slipping contacts (its argument with_slip) */
enum { CORR_STICK_ONLY = 0, CORR_NEWTON = 1, CORR_HELD = 2 };
/* The largest change of a slip angle in one pass of the correction (radians). */
#define ACT_DTHETA 0.5
/* per contact, over the passes of one correction */
enum { ACT_FREE = 0, ACT_FORCE_SLIP = 1, ACT_RELEASED = 2 };

/* The largest t in [0, 1] keeping lambda + t d in the contact's case (sticking: in the cone;
   otherwise lambda_N > 0), by bisection on t (each case's set is convex and contains t = 0). */
static double act_tmax(const double* l, const double* d, double mu, int kind) {
  double lo = 0, hi = 1;
  for (int b = -1; b < 39; b++) {
    double t = b < 0 ? 1 : 0.5 * (lo + hi); /* t = 1 first, then the bisection */
    double ln = l[0] + t * d[0], l1 = l[1] + t * d[1], l2 = l[2] + t * d[2];
    if (ln > 0 && (kind != ACT_STICK || l1 * l1 + l2 * l2 <= mu * mu * ln * ln))
      lo = t;
    else
      hi = t;
    if (lo == 1) break;
  }
  return lo;
}

CSI_HOT static double bis_residual(const csContactProblem* p, const double* blk,
                                   const double* lambda, const double* v, int desaxce, double stop);

/* A correction's impulse change of one contact for the step t, linear in its unknowns xj (a
   slip's: its normal part, what the step's limit on lambda_N > 0 sees; its angle turns
   apart). */
static inline void act_change(int kind, const double* xj, const double* e, double t, double d[3]) {
  d[0] = t * xj[0], d[1] = 0, d[2] = 0;
  if (kind == ACT_STICK) d[1] = t * xj[1], d[2] = t * xj[2];
  if (kind == ACT_HELD) d[1] = t * xj[0] * e[1], d[2] = t * xj[0] * e[2];
}

/* One pass's linear system of bis_active_solve: its members (a contact, idx its index, or a
   block row, idx its row), their case (kind), their first unknown (off) and, for a slip or a
   held direction, dirs (12 per member; a block row's: its block's type and bound); n: the
   problem's rows */
typedef struct {
  const csContactProblem* p;
  const double* blk;
  double *lambda, *v, *M, *x, *dirs;
  int *idx, *kind, *off;
  int m, k, nslip; /* members in the system, unknowns, slips among them */
  int n;
} actSys;

/* Member j's first row. */
static inline int act_row0(const actSys* a, int j) {
  return a->kind[j] == ACT_ROW ? a->idx[j] : 3 * a->idx[j];
}

/* Member j's entry of the correction's states: the contact's index, or nc + its row's rank
   among the block rows. */
static inline int act_state_of(const actSys* a, int j) {
  return a->kind[j] == ACT_ROW ? a->idx[j] - 2 * a->p->nc : a->idx[j];
}

/* The largest t in [0, 1] keeping a block row's impulse l + t d in its set ([0, inf) or
   [-bound, bound]). */
static double act_tmax_row(int type, double bound, double l, double d) {
  double t = 1;
  if (type == CS_CONE_UNILATERAL && l + d < 0) t = d < 0 && l > 0 ? l / -d : 0;
  if (type == CS_CONE_BOX && fabs(l + d) > bound) {
    double room = d > 0 ? bound - l : l + bound;
    t = room > 0 ? room / fabs(d) : 0;
  }
  return t < 1 ? t : 1;
}

/* A slip's dirs (lambda = s (1, mu u) on the cone's boundary, u = (cos t, sin t)):
   e = d lambda / ds, f = d lambda / dt, eta = a x b (the conic section's tangent: a the
   normal row of G_ii, b = (-mu, u), the cone's normal) and d eta / dt */
static void act_slip_dirs(const double* Gi, double mu, double ux, double uy, double sn, int coulomb,
                          double* e) {
  double a0 = Gi[0], a1 = Gi[1], a2 = Gi[2];
  e[0] = 1, e[1] = mu * ux, e[2] = mu * uy;
  e[3] = 0, e[4] = -sn * mu * uy, e[5] = sn * mu * ux;
  if (!coulomb) {
    e[6] = a1 * uy - a2 * ux, e[7] = -mu * a2 - a0 * uy, e[8] = a0 * ux + mu * a1;
    e[9] = a1 * ux + a2 * uy, e[10] = -a0 * ux, e[11] = -a0 * uy;
  } else { /* de Saxce (Coulomb's law): v_T parallel to u, eta = (0, u_perp) */
    e[6] = 0, e[7] = uy, e[8] = -ux;
    e[9] = 0, e[10] = ux, e[11] = uy;
  }
}

/* The block rows in the system (after the contacts: m members, k unknowns so far), by the
   case of the row's own exact solve y = lambda_r - v_r / G_rr: unilateral y > 0, box
   |y| < bound, free always; held out: released (state, one per block row), G_rr <= 0, or
   at a bound. */
static void act_classify_rows(actSys* a, const int* state, int* mp, int* kp) {
  const csContactProblem* p = a->p;
  int m = *mp, k = *kp, n = a->n;
  for (int b = 0; b < p->nblock; b++) {
    const csBlock* bl = p->block + b;
    for (int r = bl->row; r < bl->row + bl->n; r++) {
      double grr = p->G[(size_t)r * n + r] + (p->R ? p->R[r] : 0);
      if (state[r - 3 * p->nc] == ACT_RELEASED || !(grr > 0)) continue;
      double y = a->lambda[r] - a->v[r] / grr;
      if ((bl->type == CS_CONE_UNILATERAL && !(y > 0)) ||
          (bl->type == CS_CONE_BOX && !(fabs(y) < bl->bound)))
        continue;
      double* e = a->dirs + 12 * m;
      e[0] = bl->type, e[1] = bl->bound;
      a->off[m] = k++;
      a->kind[m] = ACT_ROW;
      a->idx[m++] = r;
    }
  }
  *mp = m, *kp = k;
}

/* The contacts in the system and their case. Held out: released, rank-deficient, not
   pushing, or opening (separating with an impulse that complementarity already counts, as in
   bis_violation: the relaxation's remainder), and slips unless with_slip. A slip is moved
   onto the cone's boundary first (the relaxation blends two boundary impulses into a point
   inside). */
static void act_classify(actSys* a, const int* state, int with_slip, int coulomb) {
  const csContactProblem* p = a->p;
  int m = 0, k = 0, nslip = 0;
  for (int i = 0; i < p->nc; i++) {
    double* l = a->lambda + 3 * i;
    const double* Gi = a->blk + BIS_BLK * i;
    double mu = p->mu[i];
    if (state[i] == ACT_RELEASED || Gi[9] == 0 || !(l[0] > 0) ||
        (a->v[3 * i] > 0 && l[0] < a->v[3 * i]))
      continue;
    double lt = sqrt(l[1] * l[1] + l[2] * l[2]);
    a->off[m] = k;
    if (!(mu > 0)) {
      a->kind[m] = ACT_NORMAL, k += 1;
    } else if (state[i] != ACT_FORCE_SLIP && lt < mu * l[0] * (1 - 1e-6)) {
      a->kind[m] = ACT_STICK, k += 3;
    } else {
      if (!(lt > 0) || with_slip == CORR_STICK_ONLY) continue;
      double ux = l[1] / lt, uy = l[2] / lt, sn = l[0];
      double* e = a->dirs + 12 * m;
      if (with_slip == CORR_HELD) { /* the direction held: s (1, mu u), v_N = 0 */
        e[0] = 1, e[1] = mu * ux, e[2] = mu * uy;
        a->kind[m] = ACT_HELD, k += 1;
        a->idx[m++] = i;
        continue;
      }
      double d[3] = {0, sn * mu * ux - l[1], sn * mu * uy - l[2]};
      if (d[1] != 0 || d[2] != 0) bis_move(p, a->n, 3 * i, d, l, a->v);
      act_slip_dirs(Gi, mu, ux, uy, sn, coulomb, e);
      a->kind[m] = ACT_SLIP, k += 2, nslip++;
    }
    a->idx[m++] = i;
  }
  if (p->nblock) act_classify_rows(a, state + p->nc, &m, &k);
  a->m = m, a->k = k, a->nslip = nslip;
}

/* G's entries (+ R) between members jr (rows) and jc (columns), one of them a block row, into
   B (3 x 3, row-major): a contact's three rows or columns, a block row's one, the rest 0. */
static void act_gblock_rows(const actSys* a, int jr, int jc, double B[9]) {
  const csContactProblem* p = a->p;
  int n = a->n, r0 = act_row0(a, jr), c0 = act_row0(a, jc);
  int nr = a->kind[jr] == ACT_ROW ? 1 : 3, ncol = a->kind[jc] == ACT_ROW ? 1 : 3;
  for (int q = 0; q < 3; q++)
    for (int b = 0; b < 3; b++)
      B[3 * q + b] = q < nr && b < ncol ? p->G[(size_t)(r0 + q) * n + c0 + b] : 0;
  if (jr == jc && p->R) B[0] += p->R[r0];
}

/* The system's entries of members jr (rows) and jc (columns) (a block row: as a frictionless
   contact's normal row, v_r = 0 in its one unknown): the block G_ij (+ R) times
   D_j (the unknowns' impulse changes: I, (e f), or the normal) seen through P_i (the
   conditions: v_i, (v_N, eta . v_i), or v_N), and on a slip's diagonal the slip law's own
   derivative */
static void act_pair(const actSys* a, int jr, int jc) {
  int k = a->k;
  int i = a->idx[jr], kr = a->kind[jr], r = a->off[jr];
  int kc = a->kind[jc], c = a->off[jc];
  const double* er = a->dirs + 12 * jr;
  double B[9], W[9];
  if (kr == ACT_ROW || kc == ACT_ROW) {
    act_gblock_rows(a, jr, jc, B);
  } else if (i == a->idx[jc]) {
    memcpy(B, a->blk + BIS_BLK * i, sizeof B);
  } else {
    const csContactProblem* p = a->p;
    int n = a->n, j = a->idx[jc];
    const double* Gb = p->G + (size_t)(3 * i) * n + 3 * j;
    for (int q = 0; q < 3; q++)
      B[3 * q] = Gb[(size_t)q * n], B[3 * q + 1] = Gb[(size_t)q * n + 1],
            B[3 * q + 2] = Gb[(size_t)q * n + 2];
  }
  int w = kc == ACT_STICK ? 3 : kc == ACT_SLIP ? 2 : 1;
  if (kc == ACT_HELD || kc == ACT_SLIP) { /* B e (and a slip's B f) */
    const double* ec = a->dirs + 12 * jc;
    for (int q = 0; q < 3; q++) {
      W[3 * q] = B[3 * q] * ec[0] + B[3 * q + 1] * ec[1] + B[3 * q + 2] * ec[2];
      if (kc == ACT_SLIP)
        W[3 * q + 1] = B[3 * q] * ec[3] + B[3 * q + 1] * ec[4] + B[3 * q + 2] * ec[5];
    }
  } else {
    memcpy(W, B, sizeof W); /* stick: all three columns; normal: the first */
  }
  double* M0 = a->M + (size_t)r * k + c;
  for (int b = 0; b < w; b++) {
    M0[b] = W[b];
    if (kr == ACT_STICK) M0[k + b] = W[3 + b], M0[2 * k + b] = W[6 + b];
    if (kr == ACT_SLIP) M0[k + b] = er[6] * W[b] + er[7] * W[3 + b] + er[8] * W[6 + b];
  }
  if (jr == jc && kr == ACT_SLIP) {
    const double* vi = a->v + 3 * i;
    M0[k + 1] += er[9] * vi[0] + er[10] * vi[1] + er[11] * vi[2];
  }
}

/* A pivot of the correction's LU below this fraction of its column's largest entry (before
   the factorisation) marks a direction in which the system is singular (ACT_PIVOT). */
#define ACT_PIVOT 1e-8
/* The part of a residual above the tolerance that a singular system's remainder must make up
   for the correction's next pass to take the plain solve (bis_active_solve) */
#define ACT_REMAINDER 0.25
/* Systems of more unknowns than this keep the basic solution (act_lu_solve) without the
   least-norm projection, which costs O(d k^2) for d singular directions of a k-unknown
   system: a large problem with many dependent rows (FCLIB's Capsules: 858 unknowns) would
   spend most of its time there. */
#define ACT_LEAST_NORM_MAX 48

/* x minus its projection onto the null space of the singular LU (the unknowns j whose pivot is
   below ACT_PIVOT of cs[j]): among the solutions of the other rows, the least-norm one.
   Null vector j: 1 at j, 0 at the other singular unknowns, the regular ones by back
   substitution; orthonormalised in turn (Gram-Schmidt) and projected out of x. N: n^2
   scratch entries. */
static void act_least_norm(int n, const double* LU, const double* cs, double* x, double* N) {
  int d = 0;
  for (int j = 0; j < n; j++) {
    if (fabs(LU[(size_t)j * n + j]) > ACT_PIVOT * cs[j]) continue;
    double* q = N + (size_t)d * n;
    for (int i = 0; i < n; i++) q[i] = 0;
    q[j] = 1;
    for (int i = j - 1; i >= 0; i--) {
      const double* Ui = LU + (size_t)i * (size_t)n;
      if (!(fabs(Ui[i]) > ACT_PIVOT * cs[i])) continue;
      double s = 0;
      for (int k = i + 1; k <= j; k++) s -= Ui[k] * q[k];
      q[i] = s / Ui[i];
    }
    for (int e = 0; e < d; e++) {
      const double* qe = N + (size_t)e * n;
      double c = 0;
      for (int i = 0; i < n; i++) c += qe[i] * q[i];
      for (int i = 0; i < n; i++) q[i] -= c * qe[i];
    }
    double nn = 0;
    for (int i = 0; i < n; i++) nn += q[i] * q[i];
    if (!(nn > 0)) continue;
    nn = 1 / sqrt(nn);
    for (int i = 0; i < n; i++) q[i] *= nn;
    double c = 0;
    for (int i = 0; i < n; i++) c += q[i] * x[i];
    for (int i = 0; i < n; i++) x[i] -= c * q[i];
    d++;
  }
}

/* x = M^-1 x with csi_lu's factors; unless plain, where M is singular (a pivot below
   ACT_PIVOT of its column's scale cs) the least-norm solution of the other rows
   (act_least_norm; N: its scratch). Returns the sum of the remainders the singular rows are
   left with (0 if plain): the part of the right-hand side outside M's range, which no
   impulse change in these cases removes. A singular system's pivot is only the 1e-9
   diagonal raise plus rounding, and the plain solve divides that remainder by it: where
   contacts hold one body from several sides (a pinch, a box on four corners) G's rows are
   dependent (impulses with J^T lambda = 0, internal forces), and the plain solve adds ~1e9
   times the sweeps' remainder to the internal forces; the step, cut at the first cone
   boundary, leaves them saturated there, the warm start carries them into the next steps,
   and those contacts then slip within the tolerance: the pinch's capsule slid and turned.
   The least-norm solution adds no internal force the conditions do not ask for (the basic
   one, those unknowns zero, adds an arbitrary one: more sweeps in all on the stacked cubes).
   A merely ill-conditioned system (G's condition ~1e6 at an ANYmal impact) keeps pivots far
   above the threshold. Above ACT_LEAST_NORM_MAX unknowns the basic solution (the singular
   unknowns zero) stands, without the projection. */
static double act_lu_solve(int n, const double* LU, const int* piv, const double* cs, int plain,
                           double* x, double* N) {
  csi_lu_forward(n, LU, piv, x);
  double inc = 0;
  int sing = 0;
  for (int i = n - 1; i >= 0; i--) {
    const double* Ui = LU + (size_t)i * (size_t)n;
    double s = x[i];
    for (int k = i + 1; k < n; k++) s -= Ui[k] * x[k];
    if (!plain && !(fabs(Ui[i]) > ACT_PIVOT * cs[i])) {
      inc += fabs(s), sing = 1;
      x[i] = 0;
      continue;
    }
    x[i] = s / Ui[i];
  }
  if (sing && n <= ACT_LEAST_NORM_MAX) act_least_norm(n, LU, cs, x, N);
  return inc;
}

/* M = P G D (+ the slip law's own derivative) pair by pair, and the right-hand side
   x = -P v; then the system solved in x (M's diagonal raised by 1e-9 of itself; where it is
   singular, the least-norm solution unless plain: act_lu_solve, whose remainder goes to
   *inc). 0 if the factorisation fails or the solution is not finite. cs: k + k^2 scratch
   entries (the columns' scales, act_least_norm's null vectors). */
static int act_system(const actSys* a, int* piv, double* cs, int plain, double* inc) {
  int m = a->m, k = a->k;
  double *M = a->M, *x = a->x;
  for (int jr = 0; jr < m; jr++) {
    for (int jc = 0; jc < m; jc++) act_pair(a, jr, jc);
    int r = a->off[jr], kr = a->kind[jr];
    const double* er = a->dirs + 12 * jr;
    const double* vi = a->v + act_row0(a, jr);
    x[r] = -vi[0];
    if (kr == ACT_STICK) x[r + 1] = -vi[1], x[r + 2] = -vi[2];
    if (kr == ACT_SLIP) x[r + 1] = -(er[6] * vi[0] + er[7] * vi[1] + er[8] * vi[2]);
  }
  for (int b = 0; b < k; b++) M[(size_t)b * k + b] *= 1 + 1e-9;
  for (int c = 0; c < k; c++) cs[c] = 0;
  for (int r = 0; r < k; r++) {
    const double* Mr = M + (size_t)r * k;
    for (int c = 0; c < k; c++)
      if (fabs(Mr[c]) > cs[c]) cs[c] = fabs(Mr[c]);
  }
  if (!csi_lu(k, M, piv)) return 0;
  *inc = act_lu_solve(k, M, piv, cs, plain, x, cs + k);
  for (int b = 0; b < k; b++)
    if (!isfinite(x[b])) return 0;
  return 1;
}

/* The step: as far as the first contact that changes case (t, at contact jmin; a slip's
   normal impulse reaching zero counts along its linear change s e), and a slip angle's
   change at most ACT_DTHETA (no case change: Newton's step is only trusted that far),
   ts; dmax: the largest slip angle change */
static void act_step_length(const actSys* a, double* tp, double* tsp, double* dmaxp, int* jminp) {
  double t = 1, dmax = 0;
  int jmin = -1;
  for (int j = 0; j < a->m; j++) {
    int i = a->idx[j];
    const double* xj = a->x + a->off[j];
    double tj;
    if (a->kind[j] == ACT_ROW) {
      const double* e = a->dirs + 12 * j;
      tj = act_tmax_row((int)e[0], e[1], a->lambda[i], xj[0]);
    } else {
      double d[3];
      act_change(a->kind[j], xj, a->dirs + 12 * j, 1, d);
      tj = act_tmax(a->lambda + 3 * i, d, a->p->mu[i], a->kind[j]);
    }
    if (tj < t) t = tj, jmin = j;
    if (a->kind[j] == ACT_SLIP && fabs(xj[1]) > dmax) dmax = fabs(xj[1]);
  }
  double ts = t;
  if (dmax * ts > ACT_DTHETA) ts = ACT_DTHETA / dmax, jmin = -1;
  *tp = t, *tsp = ts, *dmaxp = dmax, *jminp = jmin;
}

/* Block row member j moved by the step ts; at its set's boundary if it limits the step (at),
   to 0 or the bound it reaches. */
static void act_apply_row(const actSys* a, int j, int at, double ts) {
  int r = a->idx[j];
  double l = a->lambda[r], dx = a->x[a->off[j]], e0 = a->dirs[12 * j], f = a->dirs[12 * j + 1];
  double to = l + ts * dx;
  if (at) to = (int)e0 == CS_CONE_UNILATERAL ? 0 : dx > 0 ? f : -f;
  if (to == l) return;
  a->lambda[r] = to;
  bis_vupdate_row(a->p, a->n, r, to - l, a->v);
}

/* Every member of the system moved by the step ts (contact jmin, unless sticking, to zero;
   a slip along its normal change and turned by its angle change) */
static void act_apply(const actSys* a, int jmin, double ts) {
  const csContactProblem* p = a->p;
  for (int j = 0; j < a->m; j++) {
    if (a->kind[j] == ACT_ROW) {
      act_apply_row(a, j, j == jmin, ts);
      continue;
    }
    int i = a->idx[j], r0 = 3 * i;
    double* l = a->lambda + r0;
    const double* xj = a->x + a->off[j];
    double d[3];
    if (j == jmin && a->kind[j] != ACT_STICK) {
      d[0] = -l[0], d[1] = -l[1], d[2] = -l[2]; /* to zero */
    } else if (a->kind[j] == ACT_SLIP) {
      /* lambda = s (1, mu u) with s + ts ds and u turned by ~ts dt (u + ts dt u_perp,
         normalised: the angle atan(ts dt), Newton's to second order) */
      double mu = p->mu[i], sn = l[0] + ts * xj[0];
      double ux = l[1], uy = l[2], dt = ts * xj[1];
      double wx = ux - dt * uy, wy = uy + dt * ux, iw = 1.0 / sqrt(wx * wx + wy * wy);
      d[0] = sn - l[0], d[1] = sn * mu * wx * iw - l[1], d[2] = sn * mu * wy * iw - l[2];
    } else {
      act_change(a->kind[j], xj, a->dirs + 12 * j, ts, d);
    }
    bis_move(p, a->n, r0, d, l, a->v);
  }
}

/* The passes of the correction: the system of the members' current cases, solved, and a
   step along its solution; a member that changes case first ends the step there (a
   sticking contact slips from then on, a slip or normal one is released, a block row is
   held at its set's boundary). A whole step that
   leaves a singular system's remainder above the tolerance, or at least ACT_REMAINDER of
   a residual above it, is followed by a pass with the plain solve: no impulse change in
   these cases meets the conditions (ANYmal `random`: three contacts, remainder ~5e-5; the
   1e4 stack of `stack_ratio`: 5e-9 of a residual of 1.1e-8, kept through 15 corrections),
   and the plain solve's long step along the null direction ends where a contact changes
   case; the least-norm solution alone leaves the remainder in place for good. */
static void bis_active_solve(const csContactProblem* p, const double* blk, double* lambda,
                             double* v, double* M, double* cs, double* x, int* idx, int* kind,
                             double* dirs, int* off, int* piv, int* state, int with_slip,
                             int coulomb, double tol) {
  int n = bis_rows(p);
  actSys a = {p, blk, lambda, v, M, x, dirs, idx, kind, off, 0, 0, 0, n};
  for (int i = 0; i < n - 2 * p->nc; i++) state[i] = ACT_FREE;
  int plain = 0;
  for (int pass = 0; pass < ACT_PASSES; pass++) {
    act_classify(&a, state, with_slip, coulomb);
    if (a.m < 2) return;
    double inc;
    if (!act_system(&a, piv, cs, plain, &inc)) return;
    double t, ts, dmax;
    int jmin;
    act_step_length(&a, &t, &ts, &dmax, &jmin);
    act_apply(&a, jmin, ts);
    plain = 0;
    if (jmin >= 0) {
      state[act_state_of(&a, jmin)] = kind[jmin] == ACT_STICK ? ACT_FORCE_SLIP : ACT_RELEASED;
      continue;
    }
    if (ts < t) continue;
    /* a whole step: the linear cases are solved; the slip angles need Newton's next step
       unless the conditions are met already; a singular system's remainder: the plain
       pass next (above) */
    int lin = a.nslip == 0 || dmax <= 1e-9;
    double r =
        lin && !(inc > 0) ? 0 : bis_residual(p, blk, lambda, v, coulomb, inc > 0 ? INFINITY : tol);
    if (inc > tol || (inc > ACT_REMAINDER * r && r > tol)) {
      plain = 1;
      continue;
    }
    if (lin || r <= tol) return;
  }
}

/* The stop test's sum of bis_violation over the contacts, plus the blocks' largest residual
   (csi_blocks_residual) if there are blocks; the adding stops once the sum is past stop
   (INFINITY: the whole sum). */
CSI_HOT static double bis_residual(const csContactProblem* p, const double* blk,
                                   const double* lambda, const double* v, int desaxce,
                                   double stop) {
  double res = 0;
  for (int i = 0; i < p->nc && res <= stop; i++) {
    const double* Gi = blk + BIS_BLK * i;
    res += bis_violation(Gi, Gi[9] != 0, lambda + 3 * i, v + 3 * i, p->mu[i], desaxce);
  }
  if (p->nblock && res <= stop) res += csi_blocks_residual(p, lambda, v);
  return res;
}

/* lambda and v into keep (save), or back from it: the state before a correction or an
   extrapolation, to return to if the sweep after it did not lower the residual. */
static inline void bis_keep(double* keep, double* lambda, double* v, int n, int save) {
  size_t b = sizeof(double) * (size_t)n;
  if (save)
    memcpy(keep, lambda, b), memcpy(keep + n, v, b);
  else
    memcpy(lambda, keep, b), memcpy(v, keep + n, b);
}

/* The last resort: the fall-back the solver layer's policy gives (cs_solver_fallback,
   opt->fallback; ncp_admm by default: the Coulomb NCP, by a method that does not go contact
   by contact) from the current impulses, for at most budget iterations (counted into *it);
   it stops on its own measure, from a tenth of the tolerance per contact, a hundredfold
   tighter while the sum of violations (of the model desaxce) is not met, three times at
   most. Leaves v up to date and returns the sum of violations. ws: the correction's space
   (sized for the fall-back). Where there is no fall-back (opt->fallback = -1) or it refuses
   the problem (a block type it does not take), lambda and v stay as they are (a refusal is
   an entry's first check) and the sum returned is +inf: the callers then keep the sweeps'
   answer. */
static double bis_last_resort(const csContactProblem* p, const csSolverOptions* opt,
                              const double* blk, double* lambda, double* v, void* ws, int budget,
                              int desaxce, int* it) {
  const csSolver* fb = cs_solver_fallback(CS_SOLVER_BISECTION, opt);
  csSolverOptions o = *opt;
  o.warmstart = 1, o.tolerance = 0.1 * opt->tolerance / (p->nc + (p->nblock > 0));
  o.fallback = -1; /* the chain ends with it */
  double res = INFINITY;
  if (!fb) return res;
  for (int k = 0, used = 0; k < 3 && used < budget; k++) {
    csSolverStats sa;
    o.iterations = budget - used;
    if (fb->solve(p, &o, ws, lambda, &sa) != CS_OK) break;
    used += sa.iterations, *it += sa.iterations, o.tolerance *= 0.01;
    csi_solver_velocity(p, lambda, v);
    res = bis_residual(p, blk, lambda, v, desaxce, INFINITY);
    if (res <= opt->tolerance) break;
  }
  return res;
}

/* (key, index) pairs in ascending order, the index breaking ties: the order is fully
   determined, whatever the sort */
static inline int key_less(const double* key, int a, int b) {
  return key[a] < key[b] || (key[a] == key[b] && a < b);
}

/* The sweep order, not in the paper (Algorithm 2 leaves it open): the contacts by ascending
   tangential speed |v_T| of the warm start (key: nc, scratch), so that slipping contacts come
   last; speeds below vmin count as 0, so that contacts at rest keep their index order. A
   fast slip turns a small change of its impulse's angle into a large velocity error, and
   the stop test counts that error in m/s: swept last, such a contact ends each sweep solved
   against every other contact's latest impulse. Ordering by slip speed lowers the sweeps per
   step on the drop task (100,000 steps, closed loop), slightly on hang, and leaves trot and
   random as they are; sliding contacts first, or sorting again before every sweep, takes
   more sweeps. vmin keeps contacts at rest in place: sorted by the noise of their warm start
   they would change places from step to step, each step's sweeps would stop at another point
   of an indeterminate problem's solutions, and a box at rest on three contacts of bumpy
   terrain would creep (1.7e-5 m in 2 s); without it, hang would save only a few sweeps.
   Insertion sort for the few contacts of a robot, heapsort beyond. */
void csi_bis_order(const double* lambda, const double* v, const double* mu, int nc, double vmin,
                   double* key, int* ord) {
  int moving = 0;
  for (int i = 0; i < nc; i++) {
    const double* l = lambda + 3 * i;
    ord[i] = i, key[i] = 0;
    if (!(l[0] > 0) || sqrt(l[1] * l[1] + l[2] * l[2]) < BIS_ORDER_EDGE * mu[i] * l[0])
      continue; /* not on its cone's boundary */
    double k = sqrt(v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
    if (k != k) k = INFINITY; /* NaN: last, and a total order */
    if (k >= vmin) key[i] = k, moving = 1;
  }
  if (!moving) return; /* the index order */
  if (nc <= 32) {
    for (int a = 1; a < nc; a++) {
      int t = ord[a], b = a - 1;
      for (; b >= 0 && key_less(key, t, ord[b]); b--) ord[b + 1] = ord[b];
      ord[b + 1] = t;
    }
    return;
  }
  for (int end = nc, start = nc / 2 - 1;;) { /* heapsort: a max-heap of (key, index) */
    int root;
    if (start >= 0) {
      root = start--;
    } else {
      if (--end <= 0) break;
      int t = ord[0];
      ord[0] = ord[end], ord[end] = t;
      root = 0;
    }
    for (int c; (c = 2 * root + 1) < end; root = c) {
      if (c + 1 < end && key_less(key, ord[c], ord[c + 1])) c++;
      if (!key_less(key, ord[root], ord[c])) break;
      int t = ord[root];
      ord[root] = ord[c], ord[c] = t;
    }
  }
}

/* The solve's workspace, as bis_workspace sizes it: n rows (3nc and the blocks' rows), m
   members of the correction (nc and the blocks' rows). */
typedef struct {
  int n;        /* the problem's rows (G's leading dimension) */
  double* v;    /* (n) v = G lambda + g (+ R lambda) */
  double* blk;  /* (BIS_BLK nc) G_ii (9), full rank, tol, vtol */
  double* sx;   /* (n) the active-set correction's right-hand side */
  double* scs;  /* (n + n^2) its columns' scales, null vectors (act_lu_solve) */
  double* sdir; /* (12m) its members' directions */
  double* keep; /* (2n) lambda and v before it (or an extrapolation) */
  double* dsw;  /* (n) the last sweep's impulse changes */
  double* okey; /* (nc) the sweep order's keys */
  int* ord;     /* (nc) the sweep order */
  double* sM;   /* (n x n) the correction's matrix; the last resort's space */
  int* sra;     /* (n) its unknowns' offsets */
  int* spiv;    /* (n) its pivots */
  int* sstate;  /* (m) the members' states in it */
  int* sidx;    /* (m) its members */
  int* skind;   /* (m) their cases */
} bisWork;

/* The sweep loop's state, shared by the stages of bis_solve. */
typedef struct {
  double alpha, alpha_min;  /* Algorithm 2's relaxation and its floor */
  double res;               /* the residual after the last sweep (or its correction) */
  double rho;               /* the last sweep's contraction */
  double mv_prev, rho_prev; /* the last sweeps' sizes of change and their ratio */
  double r_keep;            /* the residual before the last correction */
  double r_best;            /* the stall guard's least residual */
  double r_x;               /* the residual before the last extrapolation */
  double r_win, r_win_prev; /* the budget guard's window minima */
  int it;                   /* sweeps (and last-resort iterations) so far */
  int it_best;              /* the sweep of r_best */
  int pending;              /* a correction (its CORR_ mode) awaits the next sweep's check */
  int xpending;             /* an extrapolation awaits the next sweep's check */
  int xoff;                 /* no more extrapolations in this solve */
  int nx;                   /* extrapolations so far */
  int budget_off;           /* the budget guard's trial was made */
  int last_resort;          /* the stall guard hands the rest to the fall-back */
  int desaxce;              /* the model solved: 1 Coulomb's (de Saxce), 0 the paper's */
} bisLoop;

/* What the sweep loop does after the budget guard. */
enum { BIS_GO_ON = 0, BIS_NEXT_SWEEP = 1, BIS_STOP = 2 };

/* Points the workspace's arrays into ws. */
static CSI_INLINE void bis_work_layout(bisWork* w, void* ws, const csContactProblem* p) {
  int nc = p->nc, n = bis_rows(p), m = n - 2 * nc;
  w->n = n;
  w->v = ws;
  w->blk = w->v + n;
  w->sx = w->blk + BIS_BLK * nc;
  w->sdir = w->sx + n;
  w->keep = w->sdir + 12 * m;
  w->dsw = w->keep + 2 * n;
  w->okey = w->dsw + n;
  w->ord = (int*)(w->okey + nc);
  w->sM = (double*)((char*)ws + bis_head_bytes(nc, n));
  w->scs = w->sM + (size_t)n * n;
  w->sra = (int*)(w->scs + n + (size_t)n * n);
  w->spiv = w->sra + n;
  w->sstate = w->spiv + n;
  w->sidx = w->sstate + m;
  w->skind = w->sidx + m;
}

/* A contact's search intervals (b[10], b[11]) for the solve's tolerance tol, from its block
   G_ii (b[0..8]; see bis_start). */
static CSI_INLINE void bis_intervals(double* b, double tol) {
  double gs = b[0] + b[4] + b[8];
  double ti = 0.1 * tol / (gs > 1 ? gs : 1);
  b[10] = ti < CSI_BISECTION_TOL ? ti : CSI_BISECTION_TOL;
  b[11] = 0.1 * tol;
}

/* Per contact (blk, BIS_BLK each; n rows): its block G_ii, rank flag and cofactors
   (bis_block), and its search's intervals for the solve's tolerance tol (see bis_start). */
static CSI_INLINE void bis_contact_blocks(const csContactProblem* p, int n, double tol,
                                          double* blk) {
  for (int i = 0; i < p->nc; i++) {
    double* b = blk + BIS_BLK * i;
    b[9] = bis_block(p, n, i, b);
    bis_intervals(b, tol);
  }
}

/* The start: lambda (zero without a warm start) projected onto the cones (and the blocks'
   sets), v from it, the
   sweep order, and per contact its block and search intervals. The intervals: the paper's
   1e-6 N s, tightened so that the solve's own error (~ |G_ii| times it in velocity) stays a
   tenth of the tolerance of the sum; and the friction-law violation at the bracket's ends
   below that tenth too, since a fast slip with a small impulse turns a small angle error into
   a large velocity one. They stay fixed for the solve: a schedule from the last sweep's
   residual (loose while the residual is large) saves nothing measurable on the ANYmal tasks,
   as the cost of the Newton-predicted bracket grows little with the precision. */
static CSI_INLINE void bis_start(const csContactProblem* p, const csSolverOptions* opt,
                                 const bisWork* w, double* lambda) {
  int nc = p->nc, n = w->n;
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * (size_t)n);
  for (int i = 0; i < nc; i++) csi_project_cone(lambda + 3 * i, p->mu[i], lambda + 3 * i);
  if (p->nblock) csi_blocks_project(p, lambda);
  csi_solver_velocity(p, lambda, w->v);
  csi_bis_order(lambda, w->v, p->mu, nc, BIS_ORDER_VMIN * opt->tolerance, w->okey, w->ord);
  bis_contact_blocks(p, n, opt->tolerance, w->blk);
}

/* The sweep loop's state at the start of a solve of the model desaxce. */
static CSI_INLINE void bis_loop_init(bisLoop* s, int desaxce) {
  s->alpha = BIS_ALPHA0, s->alpha_min = BIS_ALPHA_MIN, s->res = INFINITY;
  s->rho = 0;
  s->r_keep = INFINITY, s->r_best = INFINITY, s->r_x = INFINITY;
  s->mv_prev = 0, s->rho_prev = 0;
  s->xpending = 0, s->xoff = 0, s->nx = 0;
  s->it = 0, s->pending = 0, s->it_best = 0, s->last_resort = 0;
  s->r_win = INFINITY, s->r_win_prev = INFINITY;
  s->budget_off = 0;
  s->desaxce = desaxce;
}

/* One contact's own solve given the others' impulses (Algorithm 2's inner step): its lambda*
   into ls, from c_i = v_i - G_ii lambda_i, the contact's velocity without its own impulse. The
   search starts from the current impulse's direction (the last sweep's answer). de Saxce:
   c_N + mu |v_T| with the v_T that results, i.e. the contact's own NCP
   (csi_bisection_coulomb_single); a shift lagged from the current iterate (each contact then
   solving a CCP) would oscillate at large mu (a box on four corners with mu = 1e3 does not
   converge in 20,000 sweeps that way). */
static CSI_INLINE void bis_contact(const double* Gi, const double* l, const double* vi, double mu,
                                   int desaxce, double ls[3]) {
  const double* kk = Gi[9] != 0 ? Gi + 12 : NULL; /* its cofactors (full rank) */
  double c[3];
  for (int a = 0; a < 3; a++)
    c[a] = vi[a] - (Gi[3 * a] * l[0] + Gi[3 * a + 1] * l[1] + Gi[3 * a + 2] * l[2]);
  bis_single(Gi, c, mu, desaxce, Gi[10], Gi[11], 1, l, ls, NULL, kk);
  if (desaxce) {
    /* Safeguard: the Coulomb root of a nearly grazing contact can run off along the slip
       ellipse (an iterate of 1e105 in the ANYmal `random` task). An impulse far beyond what
       stops the contact's free velocity is not an answer: take the paper model's root there
       instead (bounded on its ellipse) for this sweep. */
    double ns = sqrt(ls[0] * ls[0] + ls[1] * ls[1] + ls[2] * ls[2]);
    double nl = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    double ncv = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    double gm = (Gi[0] + Gi[4] + Gi[8]) / 3;
    double bound = 1e6 * (nl + (gm > 0 ? ncv / gm : 0)) + 1e-300;
    if (!(ns <= bound)) bis_single(Gi, c, mu, 0, Gi[10], Gi[11], 1, l, ls, NULL, kk);
  }
}

/* The blocks' Gauss-Seidel pass after a sweep of the contacts (csi_blocks_gs, relaxation
   omega, v kept up to date); the changes of the blocks' impulses into dsw beside the
   contacts'. Returns the pass's sum |d|. */
static double bis_blocks_pass(const csContactProblem* p, const bisWork* w, double* lambda,
                              double omega) {
  int r0 = 3 * p->nc, n = w->n;
  double* dsw = w->dsw;
  memcpy(dsw + r0, lambda + r0, sizeof(double) * (size_t)(n - r0));
  double mv = csi_blocks_gs(p, lambda, w->v, omega);
  for (int r = r0; r < n; r++) dsw[r] = lambda[r] - dsw[r];
  return mv;
}

/* One sweep of Algorithm 2 in the sweep order: each contact's impulse moves to
   alpha lambda* + (1 - alpha) lambda_i (opening: lambda* = 0), v with it; the changes are kept
   in dsw for an extrapolation. Returns the sweep's size of change, sum |d|. */
static CSI_INLINE double bis_sweep(const csContactProblem* p, const bisWork* w, double* lambda,
                                   double alpha, int desaxce) {
  int nc = p->nc;
  double* v = w->v;
  double* dsw = w->dsw;
  double mv = 0;
  for (int k = 0; k < nc; k++) {
    int i = w->ord[k], r0 = 3 * i;
    double* l = lambda + r0;
    double ls[3];
    bis_contact(w->blk + BIS_BLK * i, l, v + r0, p->mu[i], desaxce, ls);
    double d[3];
    for (int a = 0; a < 3; a++) d[a] = alpha * ls[a] + (1 - alpha) * l[a] - l[a];
    dsw[r0] = d[0], dsw[r0 + 1] = d[1], dsw[r0 + 2] = d[2];
    if (d[0] != 0 || d[1] != 0 || d[2] != 0) {
      bis_move(p, w->n, r0, d, l, v);
      mv += fabs(d[0]) + fabs(d[1]) + fabs(d[2]);
    }
  }
  if (p->nblock) mv += bis_blocks_pass(p, w, lambda, BIS_BLOCK_OMEGA);
  return mv;
}

/* After a sweep of size mv: the sweeps' contraction rho, from the sizes of two successive
   sweeps' changes, and the relaxation's step towards its floor. Returns 1 for an
   extrapolation's candidate: two successive ratios agree within 10 %. */
static CSI_INLINE int bis_contraction(bisLoop* s, double mv) {
  double rho = s->mv_prev > 0 ? mv / s->mv_prev : 0;
  int xcand = !s->xoff && !s->xpending && !s->pending && s->it >= 3 && s->nx < BIS_EXTRAP_MAX &&
              rho > 0.2 && rho < 0.95 && fabs(rho - s->rho_prev) < 0.1 * rho;
  s->rho = rho;
  s->mv_prev = mv, s->rho_prev = rho;
  s->alpha = s->alpha_min + BIS_GAMMA * (s->alpha - s->alpha_min);
  return xcand;
}

/* A correction costs as much as ~15 sweeps of 8 contacts: 1 (skip it) where the sweeps contract
   steadily enough to finish within BIS_SKIP more at the rate of the last one. */
static CSI_INLINE int bis_skip_correction(const bisLoop* s, double tol) {
  return s->res > tol && s->rho > 0 && s->rho < 1 && !s->xpending &&
         log(tol / s->res) >= BIS_SKIP * log(s->rho);
}

/* The sweep after an extrapolation: kept if it lowered the residual, else undone (and no more
   extrapolations in this solve). */
static CSI_INLINE void bis_extrapolation_check(const bisWork* w, double* lambda, int n,
                                               bisLoop* s) {
  s->xpending = 0;
  if (!(s->res < s->r_x)) {
    bis_keep(w->keep, lambda, w->v, n, 0);
    s->res = s->r_x, s->xoff = 1, s->mv_prev = 0;
  }
}

/* Budget guard, not in the paper: where the sweeps crawl too slowly to meet the tolerance
   within the iterations left, the last resort (the fall-back: ncp_admm on Coulomb's law by default)
   is tried at once on part of them rather than the sweeps spending the cap. Each window of
   BIS_BUDGET_WIN sweeps keeps its least residual; from the second window on, the rate between the
   last two minima predicts the sweeps still needed. The trial gets 128 + 1/8 of the iterations left
   (all of them under a cap of 150); if it meets the tolerance the solve ends there
   (stats->fallback = 2), else the better of the two answers (by the sum of violations of the
   solve's model) is kept and the sweeps go on for the rest, without the guard. The case it is
   for: a box on three contacts of bumpy terrain, two of them almost at one point, where the
   sweeps lose 1.7 % per correction cycle and the 150-sweep cap runs out in 4 of the 6 orders
   of its contacts, while the stall guard, which asks for 1 % in 50 sweeps, would act only
   after ~2,500. It hands over part of the iterations, not all: on FCLIB's spheres-in-a-box,
   which ncp_admm does not solve either, the sweeps' answer at the cap is 10x better than
   ncp_admm's. Returns what the sweep loop does next (BIS_GO_ON, _NEXT_SWEEP, _STOP). */
static CSI_INLINE int bis_budget_guard(const csContactProblem* p, const csSolverOptions* opt,
                                       const bisWork* w, double* lambda, csSolverStats* st,
                                       bisLoop* s) {
  int n = w->n;
  if (s->res < s->r_win) s->r_win = s->res;
  if (s->it % BIS_BUDGET_WIN != 0 || s->pending || s->xpending) return BIS_GO_ON;
  double q = s->r_win_prev < INFINITY ? pow(s->r_win / s->r_win_prev, 1.0 / BIS_BUDGET_WIN) : 0;
  double need = q >= 1 ? INFINITY : q > 0 ? log(opt->tolerance / s->r_win) / log(q) : 0;
  int left = opt->iterations - s->it;
  s->r_win_prev = s->r_win, s->r_win = INFINITY;
  if (!(need > left)) return BIS_GO_ON;
  int trial = 128 + left / 8 < left ? 128 + left / 8 : left;
  bis_keep(w->keep, lambda, w->v, n, 1);
  int it = s->it;
  double r_admm = bis_last_resort(p, opt, w->blk, lambda, w->v, w->sM, trial, 1, &it);
  s->it = it;
  if (r_admm <= opt->tolerance) {
    s->desaxce = 1, s->res = r_admm, st->fallback = 2;
    return BIS_STOP;
  }
  s->budget_off = 1;
  double r_own = bis_residual(p, w->blk, lambda, w->v, s->desaxce, INFINITY);
  if (!(r_own < s->res))
    bis_keep(w->keep, lambda, w->v, n, 0);
  else
    s->res = r_own;
  s->mv_prev = 0, s->xoff = 1;
  return s->it >= opt->iterations ? BIS_STOP : BIS_NEXT_SWEEP;
}

/* Stall guard, not in the paper: where the sweeps cycle (two slipping contacts of one leg can
   alternate for good in the `random` task: the paper's model, a different friction law per
   contact than Coulomb's, need have no solution there), the relaxation halves each time
   BIS_STALL sweeps have not lowered the least residual seen by 1 %, and after two halvings
   the solve falls back to the de Saxce variant (Coulomb's law, bisection_desaxce) for the rest:
   stats->fallback = 1 says so. If that stalls too (the sweeps of ncp_pgs cycle there as well),
   returns 1: the last resort is the fall-back (ncp_admm by default), from the current impulses, for
   the remaining iterations (stats->fallback = 2), the same Coulomb NCP by a method that does not go
   contact by contact. A slow but steady solve, as a torso edge sliding at 0.1 mm/s in `drop`, is
   left alone: a rule on "halved in 50 sweeps" would slow it about ninefold. */
static CSI_INLINE int bis_stall_guard(bisLoop* s, csSolverStats* st) {
  if (s->res < 0.99 * s->r_best) {
    s->r_best = s->res, s->it_best = s->it;
  } else if (s->it - s->it_best >= BIS_STALL) {
    if (s->alpha_min > 0.2) {
      s->alpha_min *= 0.5, s->alpha = s->alpha_min;
    } else if (s->desaxce) {
      s->last_resort = 1;
      return 1;
    } else {
      s->desaxce = 1, s->alpha_min = BIS_ALPHA_MIN, s->alpha = BIS_ALPHA0;
      st->fallback = 1;
      s->r_best = INFINITY;
    }
    s->it_best = s->it;
  }
  return 0;
}

/* The active-set correction (bis_active_solve) in the sweep loop. A correction is checked by
   the sweep after it: if that sweep did not get below the residual before the correction, the
   state goes back and is corrected again with less, the slip directions held (Newton on the
   slip angles can run off where the cases flip between passes: two stacked cubes, their
   contacts opening and closing), then the sticking contacts only. Otherwise, where correct
   says so, a new correction (Newton on all cases) is made. Returns 1 if it made a new one. */
static CSI_INLINE int bis_correction(const csContactProblem* p, const csSolverOptions* opt,
                                     const bisWork* w, double* lambda, bisLoop* s, int correct) {
  int n = w->n;
  if (s->pending && s->res > opt->tolerance) {
    int mode = s->pending == CORR_NEWTON ? CORR_HELD : CORR_STICK_ONLY;
    s->pending = 0;
    if (!(s->res < s->r_keep)) {
      bis_keep(w->keep, lambda, w->v, n, 0);
      bis_active_solve(p, w->blk, lambda, w->v, w->sM, w->scs, w->sx, w->sidx, w->skind, w->sdir,
                       w->sra, w->spiv, w->sstate, mode, s->desaxce, opt->tolerance);
      s->res = bis_residual(p, w->blk, lambda, w->v, s->desaxce, opt->tolerance);
      if (mode == CORR_HELD && s->res > opt->tolerance) s->pending = CORR_HELD;
    }
    return 0;
  }
  if (s->res > opt->tolerance && correct) {
    s->r_keep = s->res;
    bis_keep(w->keep, lambda, w->v, n, 1);
    bis_active_solve(p, w->blk, lambda, w->v, w->sM, w->scs, w->sx, w->sidx, w->skind, w->sdir,
                     w->sra, w->spiv, w->sstate, CORR_NEWTON, s->desaxce, opt->tolerance);
    s->res = bis_residual(p, w->blk, lambda, w->v, s->desaxce, opt->tolerance);
    s->pending = s->res > opt->tolerance ? CORR_NEWTON : 0;
    s->mv_prev = 0;
    return 1;
  }
  return 0;
}

/* The extrapolation of the blocks' impulses by tail times the last pass's changes, each row
   projected back onto its set (csi_block_project1). */
static void bis_extrapolate_blocks(const csContactProblem* p, const bisWork* w, double* lambda,
                                   double tail) {
  for (int b = 0; b < p->nblock; b++) {
    const csBlock* bl = p->block + b;
    for (int r = bl->row; r < bl->row + bl->n; r++) {
      if (w->dsw[r] == 0) continue;
      double x = csi_block_project1(bl->type, bl->bound, lambda[r] + tail * w->dsw[r]);
      double d = x - lambda[r];
      if (d == 0) continue;
      lambda[r] = x;
      bis_vupdate_row(p, w->n, r, d, w->v);
    }
  }
}

/* Extrapolation, not in the paper: where the sweeps contract steadily by rho, the rest of the
   geometric series, rho / (1 - rho) times the last sweep's change, is added at once (each
   impulse back into its cone); the next sweep keeps it only if the residual fell. The drop
   task's landings contract by ~0.7 per sweep (feet slipping, torso corners sticking), and one
   extrapolated sweep there lowers the residual about 2.6x more than a plain one. */
static CSI_INLINE void bis_extrapolate(const csContactProblem* p, const bisWork* w, double* lambda,
                                       bisLoop* s) {
  int nc = p->nc, n = w->n;
  double tail = s->rho / (1 - s->rho);
  s->r_x = s->res, s->xpending = 1, s->nx++, s->mv_prev = 0;
  bis_keep(w->keep, lambda, w->v, n, 1);
  for (int i = 0; i < nc; i++) {
    double* l = lambda + 3 * i;
    const double* dd = w->dsw + 3 * i;
    if (dd[0] == 0 && dd[1] == 0 && dd[2] == 0) continue;
    double x[3] = {l[0] + tail * dd[0], l[1] + tail * dd[1], l[2] + tail * dd[2]};
    csi_project_cone(x, p->mu[i], x);
    double d[3] = {x[0] - l[0], x[1] - l[1], x[2] - l[2]};
    bis_vupdate(p, n, 3 * i, d, w->v);
    l[0] = x[0], l[1] = x[1], l[2] = x[2];
  }
  if (p->nblock) bis_extrapolate_blocks(p, w, lambda, tail);
}

/* The end of a solve: the stall guard's last resort on the iterations left (where it does not
   meet the tolerance either, the better answer of the two is returned), the full residual, and
   the statistics. */
static CSI_INLINE void bis_finish(const csContactProblem* p, const csSolverOptions* opt,
                                  const bisWork* w, double* lambda, csSolverStats* st, bisLoop* s) {
  int n = w->n;
  if (s->last_resort) {
    st->fallback = 2;
    if (s->it < opt->iterations && s->res > opt->tolerance) {
      double r0 = bis_residual(p, w->blk, lambda, w->v, s->desaxce, INFINITY);
      bis_keep(w->keep, lambda, w->v, n, 1);
      int it = s->it;
      s->res = bis_last_resort(p, opt, w->blk, lambda, w->v, w->sM, opt->iterations - it,
                               s->desaxce, &it);
      s->it = it;
      if (s->res > opt->tolerance && r0 < s->res)
        bis_keep(w->keep, lambda, w->v, n, 0), s->res = r0;
    }
  }
  if (s->res > opt->tolerance) s->res = bis_residual(p, w->blk, lambda, w->v, s->desaxce, INFINITY);
  st->iterations = s->it;
  st->residual = s->res;
  st->converged = s->res <= opt->tolerance;
  csi_ncp_report_v(p, lambda, w->v, &st->ncp); /* v is up to date */
}

/* The multi-contact solve: Algorithm 2's sweeps with this library's accelerations and guards.
   Each sweep is followed by the stop test (the sum of violations; it stops being added up once
   it is past the tolerance, except where a check below compares the whole sum), then the
   checks of a pending extrapolation, the budget and stall guards, the active-set correction
   (every BIS_STICK_EVERY sweeps) and the extrapolation. At least one sweep, as the PGS
   does: a warm start that already passes is refined once. */
CSI_HOT static csStatus bis_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                                  double* lambda, csSolverStats* st, int desaxce) {
  {
    csStatus bst = csi_blocks_supported(p, "bisection", BIS_BLOCK_TYPES);
    if (bst != CS_OK) return bst;
  }
  double tol = opt->tolerance;
  bisWork w;
  bis_work_layout(&w, ws, p);
  memset(st, 0, sizeof *st);
  bis_start(p, opt, &w, lambda);
  bisLoop s;
  bis_loop_init(&s, desaxce);
  while (s.it < 1 || (s.res > tol && s.it < opt->iterations)) {
    double mv = bis_sweep(p, &w, lambda, s.alpha, s.desaxce);
    s.it++;
    int xcand = bis_contraction(&s, mv);
    int stall_check = s.it >= BIS_STALL && s.it % 5 == 0;
    int budget_check = s.it >= BIS_BUDGET_WIN && !s.budget_off;
    int correct = !s.pending && s.it % BIS_STICK_EVERY == 0 && s.it < opt->iterations - 1;
    int whole = stall_check || budget_check || s.pending || correct || xcand || s.xpending;
    s.res = bis_residual(p, w.blk, lambda, w.v, s.desaxce, whole ? INFINITY : tol);
    if (correct && bis_skip_correction(&s, tol)) correct = 0;
    if (s.xpending) bis_extrapolation_check(&w, lambda, w.n, &s);
    if (budget_check && s.res > tol) {
      int next = bis_budget_guard(p, opt, &w, lambda, st, &s);
      if (next == BIS_STOP) break;
      if (next == BIS_NEXT_SWEEP) continue;
    }
    if (s.res > tol && stall_check && bis_stall_guard(&s, st)) break;
    if (bis_correction(p, opt, &w, lambda, &s, correct)) xcand = 0;
    if (xcand && s.res > BIS_XRES * tol) bis_extrapolate(p, &w, lambda, &s);
  }
  bis_finish(p, opt, &w, lambda, st, &s);
  return CS_OK;
}

static csStatus bis_solve_plain(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                                double* lambda, csSolverStats* st) {
  return bis_solve(p, opt, ws, lambda, st, 0);
}

static csStatus bis_solve_desaxce(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                                  double* lambda, csSolverStats* st) {
  return bis_solve(p, opt, ws, lambda, st, 1);
}

/* ------------------------------------------------------------------ shared kernels
   The per-contact steps of the sweeps above, for the sweeps on a block-sparse G
   (cs_solver_bsr.c): the same functions, so a contact's answer is the same given the same
   block, impulse and velocity. */

void csi_bis_contact_setup(const double Gii[9], const double* R3, double tol, double* b) {
  memcpy(b, Gii, sizeof(double) * 9);
  if (R3) b[0] += R3[0], b[4] += R3[1], b[8] += R3[2];
  b[9] = csi_single_cofactors(b, b + 12);
  bis_intervals(b, tol);
}

void csi_bis_contact_solve(const double* b, const double* l, const double* vi, double mu,
                           int desaxce, double ls[3]) {
  bis_contact(b, l, vi, mu, desaxce, ls);
}

double csi_bis_violation(const double* b, const double* l, const double* v, double mu,
                         int desaxce) {
  return bis_violation(b, b[9] != 0, l, v, mu, desaxce);
}

double csi_bis_relax(double alpha) { return BIS_ALPHA_MIN + BIS_GAMMA * (alpha - BIS_ALPHA_MIN); }

const csSolver cs_solver_bisection = {"bisection", bis_workspace, bis_solve_plain};
const csSolver cs_solver_bisection_desaxce = {"bisection_desaxce", bis_workspace,
                                              bis_solve_desaxce};
/* ------------------------------------------------------------------ bisection_paper
   Paper 001's Algorithms 1 and 2 alone (docs/solvers/bisection.md, "bisection_paper"): block
   SOR over the contacts in index order, each solved by Algorithm 1 as printed (the atan2
   guess, the incremental stepping, the bisection to the impulse interval:
   csi_bisection_single_paper), lambda_i <- alpha lambda_i* + (1 - alpha) lambda_i with alpha
   from 1 decaying by 0.99 per sweep towards 0.7, until the paper's stop test (the sum of the
   model's exact violations, bis_residual) passes; Algorithm 2's `while` tests before each
   sweep, so a start that passes takes none. What the paper leaves open is settled as in
   `bisection` (the corrected line-of-sight test, the reduced solve of a rank-deficient G_ii,
   a warm start projected onto the cones), and Algorithm 1's interval gamma, which the paper
   sets (1e-6 N s) for its single-contact benchmark only, by bis_paper_interval. Blocks
   (unilateral, box, free) are further unknowns of the same SOR: after each sweep of the
   contacts one Gauss-Seidel pass over them, each block solved exactly and blended by the same
   alpha (csi_blocks_gs). No sweep order, search from the last direction, Newton-predicted
   bracket, extrapolation, active-set correction, guard, fall-back or de Saxce variant.
   Workspace: v (n) and the contacts' blocks. */
static size_t bis_paper_workspace(const csContactProblem* p, const csSolverOptions* opt) {
  (void)opt;
  size_t b = sizeof(double) * ((size_t)bis_rows(p) + (size_t)BIS_BLK * (size_t)p->nc);
  return (b + 63) & ~(size_t)63;
}

/* Algorithm 1's impulse interval gamma for contact i (its block Gi, impulse l and velocity vi
   as the last sweep left them): that of bisection's search, Gi[10] (the paper's 1e-6 N s, or
   a tenth of the tolerance over trace G_ii where that is smaller: bis_contact_blocks), and
   for a contact that slides at most a tenth of the tolerance (Gi[11]) times
   |lambda_i| / |v_T,i|, since an interval gamma leaves the slip's direction gamma / |lambda_i|
   off, which the stop test's friction law counts times |v_T,i|. Without that term a box
   sliding at 1.2 m/s on impulses of 2e-3 N s stops 3.3 to 8.8 tolerances above the test at
   every tolerance from 1e-9 to 1e-4 (test_solver_bisection). */
static double bis_paper_interval(const double* Gi, const double* l, const double* vi) {
  double t = Gi[10];
  double vt2 = vi[1] * vi[1] + vi[2] * vi[2], l2 = l[0] * l[0] + l[1] * l[1] + l[2] * l[2];
  if (vt2 > 0 && l2 > 0) {
    double ts = Gi[11] * sqrt(l2 / vt2);
    if (ts < t) t = ts;
  }
  return t;
}

/* One sweep of Algorithm 2 (lines 2-11) over the contacts in index order with relaxation
   alpha, then the blocks' pass; v (n rows) kept up to date. */
static void bis_paper_sweep(const csContactProblem* p, int n, const double* blk, double* lambda,
                            double* v, double alpha) {
  for (int i = 0; i < p->nc; i++) {
    const double* Gi = blk + BIS_BLK * i;
    double* l = lambda + 3 * i;
    const double* vi = v + 3 * i;
    double c[3], ls[3], d[3];
    for (int a = 0; a < 3; a++)
      c[a] = vi[a] - (Gi[3 * a] * l[0] + Gi[3 * a + 1] * l[1] + Gi[3 * a + 2] * l[2]);
    csi_bisection_single_paper(Gi, c, p->mu[i], bis_paper_interval(Gi, l, vi), ls, NULL);
    for (int a = 0; a < 3; a++) d[a] = alpha * ls[a] + (1 - alpha) * l[a] - l[a];
    if (d[0] != 0 || d[1] != 0 || d[2] != 0) bis_move(p, n, 3 * i, d, l, v);
  }
  if (p->nblock) csi_blocks_gs(p, lambda, v, alpha);
}

static csStatus bis_paper_solve(const csContactProblem* p, const csSolverOptions* opt, void* ws,
                                double* lambda, csSolverStats* st) {
  csStatus bst = csi_blocks_supported(p, "bisection_paper", BIS_BLOCK_TYPES);
  if (bst != CS_OK) return bst;
  int nc = p->nc, n = bis_rows(p);
  double tol = opt->tolerance, alpha = BIS_ALPHA0;
  double* v = ws;
  double* blk = v + n;
  memset(st, 0, sizeof *st);
  if (!opt->warmstart) memset(lambda, 0, sizeof(double) * (size_t)n);
  for (int i = 0; i < nc; i++) csi_project_cone(lambda + 3 * i, p->mu[i], lambda + 3 * i);
  if (p->nblock) csi_blocks_project(p, lambda);
  csi_solver_velocity(p, lambda, v);
  bis_contact_blocks(p, n, tol, blk);
  int it = 0;
  double res = bis_residual(p, blk, lambda, v, 0, tol);
  while (res > tol && it < opt->iterations) {
    bis_paper_sweep(p, n, blk, lambda, v, alpha);
    alpha = BIS_ALPHA_MIN + BIS_GAMMA * (alpha - BIS_ALPHA_MIN);
    it++;
    res = bis_residual(p, blk, lambda, v, 0, tol);
  }
  if (res > tol) res = bis_residual(p, blk, lambda, v, 0, INFINITY);
  st->iterations = it;
  st->residual = res;
  st->converged = res <= tol;
  csi_ncp_report_v(p, lambda, v, &st->ncp);
  return CS_OK;
}

const csSolver cs_solver_bisection_paper = {"bisection_paper", bis_paper_workspace,
                                            bis_paper_solve};
