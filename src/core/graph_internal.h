/* tendon core: the graph definition and instance layouts, shared by graph*.c (not installed). */
#ifndef TENDON_GRAPH_INTERNAL_H
#define TENDON_GRAPH_INTERNAL_H

#include "tendon/blend.h"
#include "tendon/clip_cache.h"
#include "tendon/graph.h"
#include "internal.h"
#include "tendon/inertialize.h"

/* A number a node reads, resolved: a parameter index or -1 for the constant. */
typedef struct tdn__value {
    int param;
    float constant;
} tdn__value;

typedef struct tdn__param {
    char name[TDN_MAX_PARAM_NAME];
    tdn_param_type type;
    int components; /* 1, 2 or 3 */
    float initial[3];
    float half_life;
} tdn__param;

typedef struct tdn__node {
    tdn_node_type type;
    char name[64];
    int first_input, input_count; /* into tdn_graph.inputs */
    tdn__value value;
    int first_value; /* BLENDN: into tdn_graph.values */
    /* CLIP */
    int clip;
    float rate, start;
    float lead_in, lead_out;
    tdn_wrap wrap;
    int mirror;
    int sync_group;                 /* -1: none */
    int clip_slot;                  /* index among clip nodes (players, markers) */
    int first_marker, marker_count; /* sync markers of this clip node, sorted by time */
    /* SWITCH */
    float fade;
    int switch_slot; /* first of its input weights in the instance */
    /* BLEND_SPACE */
    const tdn_blend_space *space;
    int first_axis, axis_count; /* float parameters into tdn_graph.axes, or one vector */
    /* STATE_MACHINE */
    int machine; /* index into tdn_graph.machines */
    /* PROCEDURAL and MODIFIER */
    tdn_pose_callback callback;
    void *user;
    tdn_modifier_kind modifier;
    int first_joint, joint_count; /* into tdn_graph.mod_joints and mod_weights */
    tdn_vec3 axis;
    float half_life;
    int slot;         /* MODIFIER: its group pose in the instance; MOTION_MATCH: its
                       * index in tdn_graph.mm and the instance's mm_states */
    int state_offset; /* DAMP: its floats in the instance's modifier state */
    int group;        /* the modifier whose input it is part of; -1: its layer's */
    /* Reached through an ADDITIVE node's difference input (or in an additive layer). */
    int additive;
    int layer; /* the layer that reaches it, -1: none */
    /* CLIP: its clip's duration and events, looked up once */
    float duration;
    const float *event_times;
    int event_count;
} tdn__node;

typedef struct tdn__condition {
    int param;
    tdn_compare compare;
    float value;
} tdn__condition;

typedef struct tdn__transition {
    int index;    /* in the description (events name it) */
    int from, to; /* states; from TDN_ANY_STATE */
    int first_condition, condition_count;
    float exit_time, duration;
    int duration_normalized;
    tdn_ease curve;
    tdn_transition_mode mode;
    int uninterruptible, sync_phase;
} tdn__transition;

typedef struct tdn__machine {
    int node;
    int state_count;
    int first_state;                        /* into state_names, state_clip_first, state_clip_count */
    int first_transition, transition_count; /* sorted by priority */
    int initial;
} tdn__machine;

/* An IK job of the graph's IK stage (graph_ik.c). */
typedef struct tdn__ik {
    tdn_graph_ik_kind kind;
    int chain[TDN_MAX_IK_CHAIN];
    int count;
    int target, pole; /* VEC3 parameters; pole -1: none */
    tdn__value weight;
    float soften, tolerance, max_step, damping;
    int max_iterations;
    tdn_vec3 axis, up_hint;
    tdn_ik_limit limits[TDN_MAX_IK_CHAIN];
    float joint_weights[TDN_MAX_IK_CHAIN], max_angles[TDN_MAX_IK_CHAIN];
    int has_limits, has_joint_weights, has_max_angles;
    tdn_foot_placement_desc feet;
    int *contact_track; /* FOOT_PLACEMENT: per clip and leg, its own allocation */
    size_t state_bytes; /* FOOT_PLACEMENT: the instance's solver state */
} tdn__ik;

typedef struct tdn__layer {
    char name[64];
    int root;
    tdn__value weight;
    tdn_layer_mode mode;
    float *mask; /* stride floats, or NULL */
    int model_space_rotation;
    int inertializes;                   /* a machine in it has INERTIALIZE transitions */
    int first_modifier, modifier_count; /* its modifiers, deepest first, in tdn_graph.layer_modifiers */
    tdn__part part;                     /* the row groups and joints it can change (graph_rows.c) */
} tdn__layer;

/* The nodes one group of the flat list draws its entries from (a layer's own nodes, or a
 * modifier's input): its clip nodes by clip slot, then its rest, procedural, modifier and
 * motion-matching nodes in order (graph_flatten.c). */
typedef struct tdn__flat_group {
    int first, clip_count, other_count; /* into tdn_graph.flat_nodes */
} tdn__flat_group;

/* A motion-matching node's controller description (its clip list and mirror table in the
 * graph's block) and the parameters it reads (graph_motion_match.c). */
typedef struct tdn__motion_match {
    int node;
    tdn_mm_controller_desc desc;
    int root;             /* the database's root joint */
    int velocity, facing; /* a VEC2 parameter; a FLOAT parameter or -1 */
    size_t controller_bytes;
} tdn__motion_match;

/* One sync marker of a clip node: its time and which of the group's marker names it is. */
typedef struct tdn__marker {
    float time;
    int name;       /* index into the group's names */
    int occurrence; /* how many earlier markers of the clip share the name */
} tdn__marker;

typedef struct tdn__sync_group {
    char name[64];
    int first_member, member_count; /* clip nodes, into tdn_graph.members */
    int has_markers;
} tdn__sync_group;

struct tdn_graph {
    tdn_allocator allocator;
    size_t bytes;
    const tdn_skeleton *skeleton;
    int joint_count;
    const tdn_clip **clips;
    int clip_count;
    tdn__param *params;
    int param_count;
    tdn__node *nodes;
    int node_count;
    int root;
    int *inputs;
    tdn__value *values;
    int *axes;
    int *order; /* reachable nodes, every node before its inputs */
    int order_count;
    int *clip_nodes; /* node index of each clip slot */
    int clip_node_count;
    int switch_weight_count;
    tdn__sync_group *groups;
    int group_count;
    int *members;
    tdn__marker *markers;
    int *mirror; /* NULL when no node mirrors */
    float cull_threshold;
    tdn__machine *machines;
    int machine_count;
    tdn__transition *transitions;
    tdn__condition *conditions;
    char (*state_names)[64];
    int *state_clip_first, *state_clip_count; /* per state (all machines): its clip nodes */
    int *state_clips;                         /* its own allocation */
    size_t state_clips_bytes;
    int state_total;
    tdn__layer *layers;
    int layer_count;
    tdn__motion_match *mm; /* per MOTION_MATCH node */
    int mm_count;
    const tdn_keyed_clip **mm_clips; /* their clip lists */
    int *mm_mirror;                  /* their mirror tables (joint_count each) */
    int *mod_joints;                 /* modifiers' joints and their weights */
    float *mod_weights;
    int modifier_count, procedural_count;
    int damp_floats; /* the instance's modifier state */
    tdn__ik *ik;     /* its own allocation */
    int ik_count;
    size_t ik_bytes;
    const tdn_root_track **root_tracks; /* per clip (NULL for additive clips), or NULL: no root
                                         * motion; their own allocation, with root_track_owned */
    unsigned char *root_track_owned;    /* per clip: built by the graph (else the desc's) */
    int extract_root_motion;
    int root_joint;
    int clip_caches;           /* tdn_graph_desc.clip_caches */
    tdn_pose rest;             /* the skeleton's rest pose, in the graph's block */
    int entry_capacity;        /* clip nodes + one rest entry per layer */
    size_t inertializer_bytes; /* per layer that inertializes */
    size_t instance_bytes;
    tdn__flat_group *flat_groups; /* per layer, then per modifier (by its slot) */
    int *flat_nodes;
    int *layer_modifiers;
    /* per state (all machines): the transitions that can leave it, by priority (indices into
     * transitions) */
    int *state_transition_first, *state_transition_count;
    int *state_transitions;
};

/* A parameter's state: what the caller set (target) and what nodes read (value), with the
 * spring's velocity for smoothed ones. */
typedef struct tdn__param_state {
    float target[3], value[3], velocity[3];
    int fired;
} tdn__param_state;

typedef struct tdn__group_state {
    float phase; /* the leader's normalized time */
    int leader;  /* clip node, or -1 before the first update */
} tdn__group_state;

/* One state fading in on a machine's stack (the bottom one is settled). */
typedef struct tdn__fade {
    int state;
    int transition;          /* tdn__transition index, -1 for the bottom */
    float elapsed, duration; /* eased by its transition's curve */
    int frozen;              /* the states below it hold */
} tdn__fade;

typedef struct tdn__machine_state {
    tdn__fade stack[TDN_MAX_FADE_STACK];
    int depth;
    float time_in_state;
    int previous;
    unsigned char travel[TDN_MAX_STATES]; /* states (TDN_MAX_STATES <= 256) */
    int travel_count, travel_at;
    float inertialize; /* a duration to start this frame, or -1 */
} tdn__machine_state;

/* A motion-matching node's run-time state: its controller, its last two poses (the root
 * relative to the character) and the character's motion over the last update. */
typedef struct tdn__mm_state {
    tdn_mm_controller *controller;
    tdn_pose pose, before; /* the last update's pose and the one before it */
    float step;            /* seconds between them */
    tdn_root_motion motion;
    tdn_vec3 position; /* the controller's character after the last update */
    float facing;
    float goal; /* the facing asked for last (world, of the controller) */
    int frame;  /* the database frame playing */
} tdn__mm_state;

typedef struct tdn__layer_state {
    float weight;
    int first_entry, entry_count;       /* all of the layer's entries, its modifiers' included */
    int base_first, base_count;         /* the entries of the layer itself (after its modifiers') */
    struct tdn__layer_inertia *inertia; /* layers that inertialize; NULL for the others */
    float pending;                      /* an inertialization to start at evaluate, or -1 */
    float unapplied;                    /* seconds updated since the layer was last evaluated */
} tdn__layer_state;

/* What an inertializing layer keeps (graph_evaluate.c): the offsets it carries and its last two
 * results, which an inertialization starts from: the last in full, the one before as its
 * difference from the last in half floats (it only gives the velocity: 11 bits of a step of a
 * frame is far below what a pose can show). */
typedef struct tdn__layer_inertia {
    tdn_inertializer *inertializer;
    tdn_pose shown;
    uint16_t *step;   /* shown - the one before, TDN_POSE_ROWS * stride halves */
    int frames_shown; /* results kept: 0, 1 or 2 (more counts as 2) */
    float step_time;  /* seconds between the one before and shown */
} tdn__layer_inertia;

struct tdn_graph_instance {
    const tdn_graph *graph;
    tdn_allocator allocator; /* set when created, zero when in caller memory */
    size_t bytes;
    int created;
    tdn__param_state *params;
    float *node_weight;
    float *node_rate;
    unsigned char *node_leaving; /* under a state that is fading out */
    tdn_player *players;         /* per clip slot */
    tdn_clip_cache **caches;     /* per clip slot: its clip cache, or NULL (tdn_graph_desc.clip_caches) */
    float *switch_weights;
    tdn__group_state *groups;
    tdn_graph_entry *entries;
    int entry_count;
    int culled;
    float culled_weight;
    int *group_first, *group_count; /* per modifier: its entries */
    float *mod_state;               /* DAMP modifiers' springs */
    int *ik_reached;
    tdn_foot_placement **foot_states; /* per IK job (FOOT_PLACEMENT ones) */
    tdn_ground_query ground;
    void *ground_user;
    tdn_mat4 world;
    int has_world;
    float evaluate_dt;                          /* seconds updated since the last evaluate */
    float (*foot_contact)[TDN_FOOT_MAX_LEGS];   /* per IK job: the contacts last used */
    tdn_vec3 (*foot_target)[TDN_FOOT_MAX_LEGS]; /* per IK job: the ankles' targets last solved for */
    unsigned char *foot_solved;                 /* per IK job: its foot placement ran in the last evaluate */
    int no_foot_lock;
    tdn__machine_state *machines;
    tdn__layer_state *layer_states;
    tdn__mm_state *mm_states;    /* per MOTION_MATCH node */
    tdn_root_motion root_motion; /* of the last update */
    tdn_graph_event events[TDN_MAX_GRAPH_EVENTS];
    int event_count, events_dropped;
    float last_dt;
    /* A retargeted instance (graph_retarget.c): the retarget its output goes through (NULL:
     * none) and the graph's own pose, which the retarget reads (in the instance's memory after
     * the plain instance's). */
    const tdn_retarget *retarget;
    tdn_pose source;
    /* A created instance's own workspace (in its block, after the state), which
     * tdn_graph_evaluate uses; NULL for one placed by tdn_graph_instance_init. */
    tdn_graph_workspace *own;
};

/* Scratch memory for evaluating (graph_workspace.c): what an evaluate writes before it reads,
 * so one workspace serves any number of characters in turn. Sized for the largest needs of the
 * graphs it was made for; its poses are set up for the graph it last served. */
struct tdn_graph_workspace {
    tdn_allocator allocator; /* set when created, zero when in caller memory */
    size_t bytes;
    int created;
    int joint_count, entry_capacity, modifier_count, model_joints; /* what it holds */
    const tdn_graph *graph; /* the graph its poses are set up for, NULL: none yet */
    char *pose_memory;      /* entry_capacity + modifier_count + 3 poses of joint_count */
    size_t pose_bytes;
    tdn_pose *poses;       /* entry_capacity scratch poses */
    tdn_pose *group_poses; /* one per modifier: its input blended, then changed */
    tdn_pose layer_pose;   /* a layer's result before it is composed */
    tdn_pose spare;        /* a layer's velocities */
    tdn_mat4 *model;       /* model space for the IK stage */
    tdn_pose batch_pose;   /* a batch character's pose and model space, when it keeps neither */
    tdn_mat4 *batch_model;
    tdn_blend_input *layers, *additives;
};

/* tdn_graph_evaluate_with after its checks, the workspace bound to the instance's graph. */
void tdn__graph_evaluate(tdn_graph_instance *instance, tdn_graph_workspace *ws, tdn_pose *out);
/* The same computing only the joints a joint LOD keeps (NULL: every joint); what it drops in
 * `out` holds no meaning afterwards. */
void tdn__graph_evaluate_joints(tdn_graph_instance *instance, tdn_graph_workspace *ws, const tdn_joint_lod *joint_lod,
                                tdn_pose *out);
/* A created instance's own workspace into *out (NULL for a NULL instance, which the caller's
 * checks name); TDN_ERR_ARGUMENT naming `instance` and pointing at `with` for a placed one. */
tdn_result tdn__graph_own_workspace(const tdn_graph_instance *instance, const char *with, tdn_graph_workspace **out,
                                    tdn_error *err);
/* Whether a workspace holds what evaluating `g` needs. */
int tdn__graph_workspace_fits(const tdn_graph_workspace *ws, const tdn_graph *g);
/* The workspace's poses set up for `g`: TDN_ERR_ARGUMENT naming `where` when it was made for
 * smaller graphs. */
tdn_result tdn__graph_workspace_bind(tdn_graph_workspace *ws, const tdn_graph *g, const char *where, tdn_error *err);
/* Bytes a workspace for these needs takes (the struct included). */
size_t tdn__graph_workspace_layout(tdn_graph_workspace *ws, char *base, int joint_count, int entry_capacity,
                                   int modifier_count, int model_joints);

/* The node kinds with fields of their own, one file each (docs/design.md, "The source tree"):
 * the definition copied and checked when the graph is created, then what they do at run time. */

/* State machine nodes (graph_machines.c): their states, transitions and conditions (conditions
 * go from *condition_at on), and each state's clip nodes. */
int tdn__graph_count_conditions(const tdn_state_machine_desc *sm);
tdn_result tdn__graph_copy_machine(tdn_graph *g, const tdn_node_desc *d, int node, const char *place, int *condition_at,
                                   tdn_error *err);
tdn_result tdn__graph_list_state_clips(tdn_graph *g, tdn_error *err);

/* Procedural and modifier nodes (graph_modifiers.c): their fields, which modifier's input every
 * node is part of (after the nodes are ordered), and a modifier's change to its group's pose,
 * dt seconds on. */
tdn_result tdn__graph_copy_modifier(tdn_graph *g, const tdn_node_desc *d, int node, const char *place, int *joint_at,
                                    tdn_error *err);
tdn_result tdn__graph_assign_groups(tdn_graph *g, const char *(*place)(char *, size_t, const void *, int),
                                    const void *ctx, tdn_error *err);
void tdn__graph_apply_modifier(tdn_graph_instance *instance, int node, float dt, tdn_pose *pose);

/* Motion-matching nodes (graph_motion_match.c): a node's fields checked and copied (its clips
 * from *clip_at on, its mirror table at *mirror_at), their controllers and poses placed in an
 * instance's memory (from `at`; base NULL: only measured), and advanced by an update. */
tdn_result tdn__graph_copy_motion_match(tdn_graph *g, const tdn_graph_desc *desc, int node, const char *place,
                                        int *clip_at, int *mirror_at, tdn_error *err);
size_t tdn__graph_motion_match_layout(const tdn_graph *g, tdn_graph_instance *instance, char *base, size_t at);
void tdn__graph_motion_match_advance(tdn_graph_instance *instance, float dt);
/* A node's joint velocities over its last update (the layout of tdn_graph_joint_velocities). */
void tdn__graph_motion_match_velocity(const tdn_graph_instance *instance, int node, tdn_pose *velocity);

/* The IK stage (graph_ik.c), a part of the graph as a kind is: its jobs copied into the graph
 * (and freed), and run on the composed pose. */
tdn_result tdn__graph_copy_ik(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err);
void tdn__graph_free_ik(tdn_graph *g);
void tdn__graph_run_ik(tdn_graph_instance *instance, float dt, const tdn_joint_lod *joint_lod, tdn_pose *pose,
                       tdn_mat4 *model);

/* A retargeted instance's output (graph_retarget.c): whether `retarget` can take the graph's
 * poses; the source pose placed after the plain instance's memory (base NULL: only measured;
 * returns the instance's bytes); the graph's root motion scaled; and the output written from
 * the source pose, after the IK stage. */
tdn_result tdn__graph_check_retarget(const tdn_graph *g, const tdn_retarget *retarget, tdn_error *err);
size_t tdn__graph_retarget_layout(const tdn_graph *g, tdn_graph_instance *instance, char *base);
void tdn__graph_retarget_root_motion(tdn_graph_instance *instance);
void tdn__graph_retarget_output(tdn_graph_instance *instance, tdn_pose *out);

/* Each layer's rows (graph_rows.c), with scratch: an identity pose of the graph's joint count
 * (as tdn_pose_init leaves it), twice its floats (limits), two arrays of joint_count bytes, clip_count bytes zeroed
 * (clip_done) and clip_count arrays of joint_count bytes (clip_rows). */
void tdn__graph_layer_rows(tdn_graph *g, const tdn_pose *identity, float *limits, unsigned char *marks,
                           unsigned char *below, unsigned char *clip_done, unsigned char *clip_rows);

/* The value of a resolved number in an instance. */
float tdn__graph_value(const tdn_graph_instance *instance, tdn__value v);

/* Steps of tdn_graph_update, in order (graph_params.c, graph_weights.c, graph_machines.c,
 * graph_sync.c, graph_flatten.c). */
void tdn__graph_params_advance(tdn_graph_instance *instance, float dt);
void tdn__graph_switches_advance(tdn_graph_instance *instance, float dt);
void tdn__graph_machines_advance(tdn_graph_instance *instance, float dt);
void tdn__graph_weights(tdn_graph_instance *instance);
void tdn__graph_advance_clips(tdn_graph_instance *instance, float dt);
void tdn__graph_flatten(tdn_graph_instance *instance);
/* Lists each flat-list group's nodes and each layer's modifiers (when the graph is created, once
 * the nodes are ordered and their layers and groups known). */
void tdn__graph_list_flat_groups(tdn_graph *g);
void tdn__graph_root_motion(tdn_graph_instance *instance, float dt);
/* A root track per plain clip (graph_root_motion.c), and their release. */
tdn_result tdn__graph_root_tracks_create(tdn_graph *g, const tdn_graph_desc *desc, tdn_error *err);
void tdn__graph_root_tracks_destroy(tdn_graph *g);
/* Sets every switch's weights to its current selection (at instance start). */
void tdn__graph_switches_reset(tdn_graph_instance *instance);
/* Puts every machine in its initial state (at instance start). */
void tdn__graph_machines_reset(tdn_graph_instance *instance);
/* A machine's state weights (state_count floats) and whether each state's clips hold. */
void tdn__graph_machine_weights(const tdn_graph_instance *instance, int machine, float *weights, int *frozen);
/* tdn_blend2 with rotations blended in model space (blend_model_rotations.c); the two scratch
 * poses must not be any of the others. */
void tdn__blend2_model_rotations(const tdn_skeleton *skeleton, const tdn_pose *a, const tdn_pose *b, float w,
                                 const float *joint_weights, tdn_pose *scratch_a, tdn_pose *scratch_b, tdn_pose *out);
/* The state a machine is in (the top of its fade stack). */
int tdn__graph_machine_top(const tdn_graph_instance *instance, int machine);
/* Records an event (dropped past TDN_MAX_GRAPH_EVENTS). */
void tdn__graph_event(tdn_graph_instance *instance, tdn_graph_event_type type, int node, int index, int clip,
                      float weight);

#endif
