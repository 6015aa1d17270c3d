/* Sensors into csData.sensordata, with MuJoCo 2.2.2's meaning, frames and signs
   (docs/api.md, "Sensors"). cs_sensors runs at the end of a step (the state the step started
   from, its qacc and contact impulses, as mj_step's sensordata) and of cs_forward_full.

   Stages, as MuJoCo's: position sensors read the kinematics (xpos, xmat; a sensor's frame is
   its body's pose times sensor_pos, sensor_quat), velocity sensors cvel, acceleration and
   force sensors the body accelerations and subtree forces of cs_rnea at qacc (the world
   accelerating at -gravity, so an accelerometer at rest reads +g upwards) less the contact
   forces and xfrc_applied on the subtree (MuJoCo's cfrc_int), touch sensors the contacts. */
#include <math.h>
#include <string.h>

#include "contactsim/cs_dynamics.h"
#include "core/cs_memory.h"
#include "math/cs_math.h"
#include "pipeline/cs_pipeline.h"

/* World origin p and rotation R (row-major) of sensor i's frame */
static void sens_frame(const csModel* m, const csData* d, int i, double p[3], double R[9]) {
  int b = m->sensor_body[i];
  const double* xm = d->xmat + 9 * b;
  double t[3], L[9];
  csi_mulmat3vec(t, xm, m->sensor_pos + 3 * i);
  csi_add3(p, d->xpos + 3 * b, t);
  csi_quat2mat(L, m->sensor_quat + 4 * i);
  csi_mulmat3(R, xm, L);
}

/* Velocity (v) and angular velocity (w) of the point p fixed to body b, world frame */
static void point_vel(const csData* d, int b, const double* p, double v[3], double w[3]) {
  const double* c = d->cvel + 6 * b;
  double t[3];
  csi_copy3(w, c);
  csi_cross3(t, c, p);
  csi_add3(v, c + 3, t);
}

/* 1 if body k is body b or below it */
static int in_subtree(const csModel* m, int k, int b) {
  while (k > b) k = m->body_parent[k];
  return k == b;
}

/* f (about the world origin: torque, force) += the spatial force of force x at point p */
static void add_force(double* f, const double* p, const double* x, double s) {
  double t[3];
  csi_cross3(t, p, x);
  for (int a = 0; a < 3; a++) f[a] += s * t[a], f[3 + a] += s * x[a];
}

/* MuJoCo's cfrc_int into fi (nbody x 6, about the world origin): the force of each body's
   parent on its subtree, the subtree's rate of momentum with gravity (d->cfrc after cs_rnea,
   summed over the subtree) less the contact forces and xfrc_applied on the subtree */
static void interaction(const csModel* m, const csData* d, double* fi) {
  int nb = m->nbody;
  memset(fi, 0, sizeof(double) * 6 * (size_t)nb);
  double idt = 1.0 / m->opt.timestep;
  for (int c = 0; c < d->ncon; c++) {
    const csContact* ct = d->contact + c;
    double f[3];
    for (int a = 0; a < 3; a++)
      f[a] = idt * (ct->lambda[0] * ct->frame[a] + ct->lambda[1] * ct->frame[3 + a] +
                    ct->lambda[2] * ct->frame[6 + a]);
    add_force(fi + 6 * m->geom_body[ct->geom[1]], ct->pos, f, -1);
    add_force(fi + 6 * m->geom_body[ct->geom[0]], ct->pos, f, 1);
  }
  for (int k = 1; k < nb; k++) {
    const double* x = d->xfrc_applied + 6 * k;
    if (x[0] == 0 && x[1] == 0 && x[2] == 0 && x[3] == 0 && x[4] == 0 && x[5] == 0) continue;
    add_force(fi + 6 * k, d->xipos + 3 * k, x, -1);
    for (int a = 0; a < 3; a++) fi[6 * k + a] -= x[3 + a];
  }
  for (int k = nb - 1; k > 0; k--) { /* parents have smaller ids */
    for (int r = 0; r < 6; r++) fi[6 * m->body_parent[k] + r] += fi[6 * k + r];
    for (int r = 0; r < 6; r++) fi[6 * k + r] += d->cfrc[6 * k + r];
    if (m->body_parent[k] == 0)
      for (int r = 0; r < 6; r++) fi[r] += d->cfrc[6 * k + r];
  }
}

/* The ray p + t u (t >= 0) meets the solid (zone frame): a box of half sizes h */
static int ray_box(const double* p, const double* u, const double* h) {
  double t0 = 0, t1 = INFINITY;
  for (int k = 0; k < 3; k++) {
    if (u[k] == 0) {
      if (fabs(p[k]) > h[k]) return 0;
      continue;
    }
    double a = (-h[k] - p[k]) / u[k], b = (h[k] - p[k]) / u[k];
    t0 = fmax(t0, fmin(a, b)), t1 = fmin(t1, fmax(a, b));
    if (t0 > t1) return 0;
  }
  return 1;
}

/* ... an ellipsoid of radii r about the origin c */
static int ray_ellipsoid(const double* p, const double* u, const double* r, const double* c) {
  double q[3], e[3];
  for (int k = 0; k < 3; k++) q[k] = (p[k] - c[k]) / r[k], e[k] = u[k] / r[k];
  double ee = csi_dot3(e, e), t = ee > 0 ? fmax(0, -csi_dot3(q, e) / ee) : 0;
  double x[3] = {q[0] + t * e[0], q[1] + t * e[1], q[2] + t * e[2]};
  return csi_dot3(x, x) <= 1;
}

/* ... a cylinder of radius r and half length h along z */
static int ray_cylinder(const double* p, const double* u, double r, double h) {
  double t0 = 0, t1 = INFINITY;
  if (u[2] == 0) {
    if (fabs(p[2]) > h) return 0;
  } else {
    double a = (-h - p[2]) / u[2], b = (h - p[2]) / u[2];
    t0 = fmax(t0, fmin(a, b)), t1 = fmin(t1, fmax(a, b));
    if (t0 > t1) return 0;
  }
  double uu = u[0] * u[0] + u[1] * u[1];
  double t = uu > 0 ? fmin(fmax(-(p[0] * u[0] + p[1] * u[1]) / uu, t0), t1) : t0;
  double x = p[0] + t * u[0], y = p[1] + t * u[1];
  return x * x + y * y <= r * r;
}

/* 1 if the ray from world point p along u meets sensor i's touch zone */
static int zone_hit(const csModel* m, const double* zp, const double* zR, int i, const double* p,
                    const double* u) {
  double dp[3], lp[3], lu[3];
  csi_sub3(dp, p, zp);
  csi_mulmat3tvec(lp, zR, dp);
  csi_mulmat3tvec(lu, zR, u);
  const double* s = m->sensor_zonesize + 3 * i;
  double r3[3] = {s[0], s[0], s[0]}, z[3] = {0, 0, 0};
  switch (m->sensor_zonetype[i]) {
    case CS_GEOM_BOX:
      return ray_box(lp, lu, s);
    case CS_GEOM_ELLIPSOID:
      return ray_ellipsoid(lp, lu, s, z);
    case CS_GEOM_CYLINDER:
      return ray_cylinder(lp, lu, s[0], s[1]);
    case CS_GEOM_CAPSULE: {
      double top[3] = {0, 0, s[1]}, bot[3] = {0, 0, -s[1]};
      return ray_cylinder(lp, lu, s[0], s[1]) || ray_ellipsoid(lp, lu, r3, top) ||
             ray_ellipsoid(lp, lu, r3, bot);
    }
    default:
      return ray_ellipsoid(lp, lu, r3, z);
  }
}

/* Touch: the normal forces (> 0) of the contacts of the site's body whose ray from the contact
   point along the normal, pointing away from the body, meets the zone (MuJoCo's rule; always
   when the point is inside the zone) */
static double touch(const csModel* m, const csData* d, int i, const double* zp, const double* zR) {
  int b = m->sensor_body[i];
  double sum = 0, idt = 1.0 / m->opt.timestep;
  for (int c = 0; c < d->ncon; c++) {
    const csContact* ct = d->contact + c;
    int b0 = m->geom_body[ct->geom[0]], b1 = m->geom_body[ct->geom[1]];
    double fn = ct->lambda[0] * idt;
    if ((b0 != b && b1 != b) || !(fn > 0)) continue;
    double u[3];
    csi_scl3(u, ct->frame, b1 == b ? -1.0 : 1.0);
    if (zone_hit(m, zp, zR, i, ct->pos, u)) sum += fn;
  }
  return sum;
}

/* Centre of mass of body b's subtree */
static void subtree_com(const csModel* m, const csData* d, int b, double c[3]) {
  double mass = 0;
  csi_zero(c, 3);
  for (int k = b > 0 ? b : 1; k < m->nbody; k++) {
    if (!in_subtree(m, k, b)) continue;
    mass += m->body_mass[k];
    csi_addscl3(c, d->xipos + 3 * k, m->body_mass[k]);
  }
  if (mass > 0) csi_scl3(c, c, 1.0 / mass);
}

/* Sensor i of a site or object frame: accelerometer, gyro, force, torque (fi: the interaction
   forces), touch, frame* */
static void frame_sensor(const csModel* m, const csData* d, const double* fi, int i, double* out) {
  int t = m->sensor_type[i], b = m->sensor_body[i];
  double p[3], R[9], v[3], w[3], x[6], y[3];
  sens_frame(m, d, i, p, R);
  switch (t) {
    case CS_SENS_FRAMEPOS:
      csi_copy3(out, p);
      return;
    case CS_SENS_FRAMEQUAT:
      csi_quat_mul(out, d->xquat + 4 * b, m->sensor_quat + 4 * i);
      csi_quat_normalize(out);
      return;
    case CS_SENS_TOUCH:
      out[0] = touch(m, d, i, p, R);
      return;
    case CS_SENS_FORCE:
      csi_mulmat3tvec(out, R, fi + 6 * b + 3);
      return;
    case CS_SENS_TORQUE: /* about p: t_O - p x f */
      csi_cross3(y, p, fi + 6 * b + 3);
      csi_sub3(y, fi + 6 * b, y);
      csi_mulmat3tvec(out, R, y);
      return;
    default:
      break;
  }
  point_vel(d, b, p, v, w);
  if (t == CS_SENS_FRAMELINVEL) csi_copy3(out, v);
  if (t == CS_SENS_FRAMEANGVEL) csi_copy3(out, w);
  if (t == CS_SENS_GYRO) csi_mulmat3tvec(out, R, w);
  if (t == CS_SENS_ACCELEROMETER) { /* a_O + dw x p + w x v_p */
    const double* a = d->cacc + 6 * b;
    csi_cross3(x, a, p);
    csi_add3(x, x, a + 3);
    csi_cross3(y, w, v);
    csi_add3(x, x, y);
    csi_mulmat3tvec(out, R, x);
  }
}

/* The acceleration stage: d->cacc, d->cfrc of cs_rnea at qacc with gravity, and the
   interaction forces into fi (nbody x 6); 0 if the arena has no room */
static int acc_stage(const csModel* m, csData* d, double* fi) {
  double* tau = CSI_STACK_ALLOC(d, double, m->nv > 0 ? m->nv : 1);
  if (!tau || !fi) return 0;
  cs_rnea(m, d, d->qacc, CS_RNE_GRAVITY | CS_RNE_VELOCITY, tau);
  interaction(m, d, fi);
  return 1;
}

/* MuJoCo's cutoff: a positive cutoff bounds |value| (a touch, which is >= 0, from above);
   a quaternion is left as it is */
static void sensor_cutoff(const csModel* m, int i, double* out) {
  double c = m->sensor_cutoff[i];
  int t = m->sensor_type[i];
  if (!(c > 0) || t == CS_SENS_FRAMEQUAT) return;
  for (int k = 0; k < m->sensor_dim[i]; k++) {
    if (out[k] > c) out[k] = c;
    if (t != CS_SENS_TOUCH && out[k] < -c) out[k] = -c;
  }
}

void cs_sensors(const csModel* m, csData* d) {
  int acc = 0;
  for (int i = 0; i < m->nsensor; i++) {
    int t = m->sensor_type[i];
    acc |= t == CS_SENS_ACCELEROMETER || t == CS_SENS_FORCE || t == CS_SENS_TORQUE;
  }
  size_t mark = csi_stack_mark(d);
  double* fi = NULL;
  if (acc) {
    fi = CSI_STACK_ALLOC(d, double, 6 * m->nbody);
    if (!acc_stage(m, d, fi)) acc = -1;
  }
  for (int i = 0; i < m->nsensor; i++) {
    int t = m->sensor_type[i], id = m->sensor_objid[i];
    double* out = d->sensordata + m->sensor_adr[i];
    if (t == CS_SENS_JOINTPOS) {
      out[0] = d->qpos[m->jnt_qposadr[id]];
    } else if (t == CS_SENS_JOINTVEL) {
      out[0] = d->qvel[m->jnt_dofadr[id]];
    } else if (t == CS_SENS_ACTUATORFRC) {
      out[0] = m->opt.disable & CS_DISABLE_ACTUATION ? 0 : csi_actuator_force(m, d, id);
    } else if (t == CS_SENS_SUBTREECOM) {
      subtree_com(m, d, id, out);
    } else if (acc < 0 &&
               (t == CS_SENS_ACCELEROMETER || t == CS_SENS_FORCE || t == CS_SENS_TORQUE)) {
      for (int k = 0; k < 3; k++) out[k] = NAN; /* no room in the arena: not computed */
    } else {
      frame_sensor(m, d, fi, i, out);
    }
    sensor_cutoff(m, i, out);
  }
  csi_stack_free(d, mark);
}
