/* tendon: blend trees driven by named parameters.
 *
 * A graph definition (tdn_graph) is a tree (or DAG) of nodes over runtime clips, built once from
 * a description and shared read-only by any number of characters and threads. Each character
 * owns a tdn_graph_instance: its parameter values, clip time cursors, switch cross-fades and
 * sync-group phases, and the scratch poses evaluation needs, all allocated at creation.
 *
 * Per frame, tdn_graph_update(instance, dt) smooths the parameters, computes every node's
 * weight from the root down (MechWarrior 4's blend manager: weights are multiplied down the
 * hierarchy, so each clip ends with one global weight), advances every clip node's time
 * (synchronized groups share a phase), and writes the flat list of (clip, time, weight)
 * entries: duplicates of one clip at one time are merged, entries below the cull threshold are
 * dropped (their clips' time still advances) and the rest renormalized. tdn_graph_evaluate then
 * samples each entry once and blends them once (tdn_blend: base entries as weighted layers,
 * entries under an additive node's difference input as additive layers). Neither allocates,
 * reads files or takes locks; both are thread-safe for distinct instances.
 *
 * Flattening equals a recursive evaluation (blend the children's poses node by node) exactly
 * for translations and scales; rotations differ by the renormalization a recursive nlerp makes
 * at every level, which is second order in the angle between the inputs (tests bound it). An
 * ADDITIVE node is exact at the top of a tree; below a blend its difference is applied on top
 * of the whole base blend at the product of the weights above it, which is exact for
 * translations and first-order for rotations and scales.
 *
 * Node weights (x below is a value: a parameter's current value or a constant):
 *   CLIP        a leaf: a runtime clip played at `rate`, wrapped by `wrap`, starting at `start`
 *               (a fraction of its duration), optionally mirrored (tdn_graph_desc.mirror_table).
 *   BLEND2      inputs[0] at 1 - x, inputs[1] at x, x clamped to [0, 1].
 *   BLENDN      input i at max(0, x_i) / sum; all zero: input 0.
 *   SWITCH      input clamp(round(x), 0, n - 1) (a bool or int parameter); when the selection
 *               changes the new input's weight rises linearly over `fade` seconds while the
 *               others shrink in proportion (an interrupted fade continues from where it is).
 *   ADDITIVE    inputs[0] (the base) at the node's weight; inputs[1] (a difference: additive
 *               clips only) as additive layers at the node's weight times clamp(x, 0, 1).
 *   TIME_SCALE  inputs[0], with every clip below it played x times as fast (x >= 0).
 *   BLEND_SPACE inputs[i] is the blend space's sample i, weighted by tdn_blend_space_weights
 *               at the position (one vector or float parameter, or one float per axis).
 *   REST        the skeleton's rest pose.
 *   STATE_MACHINE  inputs[i] is state i, weighted by the machine's fades (state_machine.h).
 *   PROCEDURAL  a pose made by a user callback (from the rest pose).
 *   MODIFIER    inputs[0]'s pose, blended on its own, then changed (see tdn_modifier_kind); it
 *               then blends like any other input. Modifiers nest; a node belongs to one.
 *   MOTION_MATCH  a leaf: a motion-matching controller's pose (mm_controller.h), driven by a
 *               desired velocity and facing (see "Motion matching" below).
 *
 * Sync groups: clip nodes naming the same sync group share a normalized phase. The group's
 * cycle length is the weight-averaged length of its members (weights from this update), so
 * walk (1.0 s) and run (0.6 s) blended at 50% both complete a cycle every 0.8 s and their
 * feet stay in step at every weight. With markers (event names of the clips, such as
 * "foot_down_l" and "foot_down_r"), the heaviest member leads: it plays at the group's
 * cycle rate, and every follower is placed at the same fraction between the same markers (the
 * n-th occurrence of a name maps to the n-th), which aligns cycles whose phases are not
 * uniform; a follower without the leader's marker follows by phase.
 *
 * Motion matching. A MOTION_MATCH node owns one tdn_mm_controller per instance (inside the
 * instance's memory). Each update advances it by dt (times the rates of TIME_SCALE nodes and
 * frozen states above it) with
 *   velocity  the `velocity` VEC2 parameter: (x, z) on the ground in the character's frame
 *             (+z forward, +x its left), units per second: what a stick gives;
 *   facing    the `facing` FLOAT parameter, radians relative to where the character faces (a
 *             positive angle turns it left); without one the character faces where it moves
 *             (and keeps its last goal while the velocity is below 0.001).
 * Both are read in the character's frame as it stands before the update (the controller's
 * character: the world goal is velocity turned by its facing, and its facing plus `facing`). A
 * program holding a world goal converts it each frame with the character's transform (the
 * root motion integrated); when the node alone moves the character, that is a bare controller
 * given the world goal, to rounding.
 * Its pose is the controller's with the root joint relative to the character (the simulation
 * root at the origin facing +z), as if its root motion were extracted (always, whatever
 * extract_root_motion says: there is no clip for the motion to stay in); its root motion is the
 * controller's character's motion over the update (translation and yaw in the character's
 * frame at the update's start), blended with the other entries' like a clip's. So the node
 * blends with clip nodes of the same skeleton whose extracted poses start at the origin facing
 * +z (tendon's humanoid's do). A graph with a MOTION_MATCH node needs root motion on the
 * database's root joint with TDN_ROOT_YAW and keep_vertical 0 (the controller's character is a
 * yaw on the ground).
 * A node keeps simulating while it has no weight (an inactive state, a layer at 0), as clips
 * keep their time: its controller has followed the same input all along, so when it fades in
 * it shows a pose in motion that matches what is asked (a reset would start it standing, at
 * an arbitrary frame, and its first search would have no pose of its own to match). That
 * costs the same as a weighted node, searches included. */
#ifndef TENDON_GRAPH_H
#define TENDON_GRAPH_H

#include "base.h"
#include "blend_space.h"
#include "clip.h"
#include "player.h"
#include "pose.h"
#include "skeleton.h"
#include "foot_placement.h"
#include "ik_chain.h"
#include "mm_controller.h"
#include "retarget.h"
#include "root_motion.h"
#include "state_machine.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_MAX_GRAPH_NODES 1024
#define TDN_MAX_GRAPH_PARAMS 256
#define TDN_MAX_NODE_INPUTS 64
#define TDN_MAX_PARAM_NAME 64
#define TDN_MAX_LAYERS 16
/* Transitions over all of a graph's state machines. */
#define TDN_MAX_GRAPH_TRANSITIONS 4096

/* ---- parameters ---- */

typedef enum tdn_param_type {
    TDN_PARAM_FLOAT = 0,
    TDN_PARAM_INT,
    TDN_PARAM_BOOL,
    TDN_PARAM_TRIGGER, /* a bool that is true for the one update after it is fired */
    TDN_PARAM_VEC2,
    TDN_PARAM_VEC3
} tdn_param_type;

typedef struct tdn_param_desc {
    const char *name; /* required, unique, at most TDN_MAX_PARAM_NAME - 1 bytes */
    tdn_param_type type;
    float value[3]; /* initial value (ints and bools as whole numbers) */
    /* FLOAT and vectors: when > 0, the value the graph uses follows what is set through a
     * critically damped spring that covers half of a step change in exactly `half_life`
     * seconds (0.94% of it is left after 4 half-lives), so a blend-space position glides
     * instead of jumping. 0: the value is used as set. */
    float half_life;
} tdn_param_desc;

/* ---- nodes ---- */

typedef enum tdn_node_type {
    TDN_NODE_CLIP = 0,
    TDN_NODE_BLEND2,
    TDN_NODE_BLENDN,
    TDN_NODE_SWITCH,
    TDN_NODE_ADDITIVE,
    TDN_NODE_TIME_SCALE,
    TDN_NODE_BLEND_SPACE,
    TDN_NODE_REST,
    TDN_NODE_STATE_MACHINE,
    TDN_NODE_PROCEDURAL,  /* a pose from a user callback */
    TDN_NODE_MODIFIER,    /* its input's pose, changed by a built-in modifier or a callback */
    TDN_NODE_MOTION_MATCH /* a motion-matching controller's pose */
} tdn_node_type;

struct tdn_graph_instance;

/* A procedural node's pose (`pose` arrives as the rest pose) or a CALLBACK modifier's change
 * (`pose` arrives as its input's blended pose), for `node` of `instance`, which has advanced by
 * dt. Runs inside tdn_graph_evaluate: it must not allocate or block, and it may be called on
 * any thread that evaluates the instance. */
typedef void (*tdn_pose_callback)(void *user, const struct tdn_graph_instance *instance, int node, float dt,
                                  tdn_pose *pose);

typedef enum tdn_modifier_kind {
    TDN_MODIFIER_CALLBACK = 0, /* the callback changes the pose */
    TDN_MODIFIER_ROTATE,       /* joints turn about `axis` (in each joint's parent frame) by the
                                * value (radians) times each joint's weight: a torso twist
                                * towards an aim, spread over the spine */
    TDN_MODIFIER_DAMP          /* joints' rotations lag their animated rotations through a
                                * critically damped spring of `half_life` (antennas, tails,
                                * heavy armour) */
} tdn_modifier_kind;

/* A number a node reads: the named parameter's current value (a FLOAT, INT, BOOL or TRIGGER;
 * for a vector, its first component), or `constant` when param is NULL. */
typedef struct tdn_node_value {
    const char *param;
    float constant;
} tdn_node_value;

typedef struct tdn_node_desc {
    tdn_node_type type;
    const char *name;  /* optional: names the node in errors and the flat list */
    const int *inputs; /* node indices: 2 for BLEND2 and ADDITIVE, 1 for TIME_SCALE,
                        * 1..TDN_MAX_NODE_INPUTS for BLENDN, SWITCH, BLEND_SPACE,
                        * 1..TDN_MAX_STATES for STATE_MACHINE */
    int input_count;
    /* BLEND2 weight, SWITCH selector, ADDITIVE weight, TIME_SCALE factor. */
    tdn_node_value value;
    const tdn_node_value *values; /* BLENDN: one per input */
    /* CLIP */
    int clip;      /* index into tdn_graph_desc.clips */
    float rate;    /* playback rate; 0 means 1 (a TIME_SCALE node can stop it) */
    tdn_wrap wrap; /* CLAMP (the zero default), LOOP or PINGPONG; synced clips loop */
    float start;   /* start offset as a fraction of the duration, [0, 1) */
    /* Lead-in and lead-out (MechWarrior 4's header and trailer), seconds at the clip's start
     * and end that are not part of its loop: a looping clip cycles between them; entering its
     * state starts it at 0 (the header plays), leaving its state lets it run on into the
     * trailer; and a transition into or out of it lasts at least the header or trailer (a cut
     * becomes a fade over them), so even a cut has frames to blend over. */
    float lead_in, lead_out;
    int mirror;             /* 1: sampled then mirrored through tdn_graph_desc.mirror_table */
    const char *sync_group; /* NULL: plays on its own */
    /* SWITCH */
    float fade; /* cross-fade seconds when the selection changes; 0: a cut */
    /* BLEND_SPACE: the space (not owned; must outlive the graph) and where the point comes
     * from: `position` (a FLOAT for a 1D space, a VEC2/VEC3 of the space's dimensions) or
     * `axes` (one FLOAT parameter per dimension). */
    const tdn_blend_space *space;
    const char *position;
    const char *const *axes;
    /* STATE_MACHINE: its states (one per input), transitions and initial state. Copied. */
    const tdn_state_machine_desc *state_machine;
    /* PROCEDURAL, and MODIFIER of kind CALLBACK */
    tdn_pose_callback callback;
    void *user;
    /* MODIFIER: its kind; for ROTATE the angle is `value`; ROTATE and DAMP act on `joints`
     * (joint_weights: ROTATE's share per joint, NULL: each the whole angle); DAMP's spring */
    tdn_modifier_kind modifier;
    const int *joints;
    int joint_count;
    const float *joint_weights;
    tdn_vec3 axis;
    float half_life;
    /* MOTION_MATCH: the controller's description (the database, the keyed clips it was built
     * from, its mirror table, and the search, spring and inertialization settings; the
     * controller is allocated with the graph's allocator). Copied, with the clip list and the
     * mirror table; the database, the clips and the skeleton are not owned and must outlive the
     * graph. `velocity` names a
     * VEC2 parameter (required), `facing` a FLOAT parameter or NULL (see the top of this file). */
    const tdn_mm_controller_desc *motion_match;
    const char *velocity;
    const char *facing;
} tdn_node_desc;

/* A sync group's markers: event names of its clips (see the top of this file). */
typedef struct tdn_sync_group_desc {
    const char *name;
    const char *const *markers;
    int marker_count;
} tdn_sync_group_desc;

/* Layers: each evaluates its own node to a pose, composed in order onto what the layers below
 * made: OVERRIDE blends towards it by the layer's weight (times the mask's weight per joint),
 * ADDITIVE applies it as a difference (its clips are additive clips) scaled the same way. With
 * model_space_rotation, an override layer blends joint rotations in model space (an upper-body
 * aim keeps its direction in the world while the hips below it turn) and converts them back
 * to local before the next layer. Composition is local, once per layer; model space is left to
 * the caller, once at the end. */
typedef enum tdn_layer_mode { TDN_LAYER_OVERRIDE = 0, TDN_LAYER_ADDITIVE } tdn_layer_mode;

typedef struct tdn_layer_desc {
    const char *name;
    int root;              /* the node the layer evaluates */
    tdn_node_value weight; /* clamped to [0, 1]; a constant 0 means 1 (leave out a layer
                            * that never shows) */
    tdn_layer_mode mode;
    const float *mask; /* joint_count weights in [0, 1] (tdn_mask_* build them); NULL:
                        * every joint. Copied. */
    int model_space_rotation;
} tdn_layer_desc;

/* IK after the layers: each job changes the composed pose in order, fading with its weight,
 * its targets from parameters (model space). Chains run from `root` down to `end`. */
typedef enum tdn_graph_ik_kind {
    TDN_GRAPH_IK_TWO_BONE = 0,  /* root, middle, end: tdn_ik_two_bone */
    TDN_GRAPH_IK_FABRIK,        /* tdn_ik_fabrik */
    TDN_GRAPH_IK_CCD,           /* tdn_ik_ccd */
    TDN_GRAPH_IK_DLS,           /* tdn_ik_dls, one target on the chain's end */
    TDN_GRAPH_IK_LOOK_AT,       /* tdn_ik_look_at: the end joint's axis towards the target */
    TDN_GRAPH_IK_FOOT_PLACEMENT /* tdn_foot_placement on the instance's ground (tdn_graph_set_ground) */
} tdn_graph_ik_kind;

typedef struct tdn_graph_ik_desc {
    tdn_graph_ik_kind kind;
    const char *name;
    int root, middle, end; /* joints (middle: TWO_BONE only) */
    const char *target;    /* a VEC3 parameter: the model-space target (not FOOT_PLACEMENT) */
    const char *pole;      /* TWO_BONE: a VEC3 parameter, the pole point; NULL: the knee keeps
                            * the plane it bends in */
    tdn_node_value weight; /* clamped to [0, 1]; a constant 0 means 1 (leave out a job that
                            * never acts) */
    float soften;          /* TWO_BONE (and FOOT_PLACEMENT through its desc) */
    float tolerance;       /* chains: as in their solvers (0: their defaults) */
    int max_iterations;
    const tdn_ik_limit *limits; /* chains: one per chain joint, root first; NULL: free */
    float max_step;             /* CCD */
    float damping;              /* DLS */
    tdn_vec3 axis, up_hint;     /* LOOK_AT */
    const float *joint_weights; /* LOOK_AT: one per chain joint; NULL: an even spread */
    const float *max_angles;    /* LOOK_AT: one per chain joint; NULL: free */
    /* FOOT_PLACEMENT: the legs and settings (its `skeleton` is not read: the graph's is used),
     * and per leg the name of the clips' float curve that says the foot is in contact (blended
     * with the bottom layer's weights; clips without it count as not in contact), or NULL */
    const tdn_foot_placement_desc *feet;
    const char *const *contact_curves;
} tdn_graph_ik_desc;

#define TDN_MAX_GRAPH_IK 16

typedef struct tdn_graph_desc {
    const tdn_skeleton *skeleton; /* required; clips must have its joint count */
    const tdn_clip *const *clips; /* not owned; must outlive the graph */
    int clip_count;
    const tdn_param_desc *params;
    int param_count;
    const tdn_node_desc *nodes;
    int node_count;
    int root; /* the node whose pose the graph outputs (no layers) */
    /* Layers in order, the first at the bottom; none: one override layer of `root`. A node
     * belongs to one layer. */
    const tdn_layer_desc *layers;
    int layer_count;
    /* Sync groups named by nodes but not listed here sync by phase alone. */
    const tdn_sync_group_desc *sync_groups;
    int sync_group_count;
    /* Each joint's mirror partner (itself for a centre joint), required when a clip node
     * mirrors: see tdn_mirror_table_from_names in mirror.h. Copied. */
    const int *mirror_table;
    /* Flat-list entries whose weight is below this are dropped: 0 means 0.01; a negative
     * value keeps every entry with a weight above 0. */
    float cull_threshold;
    /* Root motion (root_motion.h): NULL for none. Every update then reports the motion of the
     * root joint (tdn_graph_root_motion), blended with the pose's weights through trees,
     * machines and override layers (a layer counts with its weight times its mask's weight
     * at that joint; additive layers carry none). With extract_root_motion the motion is taken
     * out of every sampled clip (the pose stays in place); otherwise it stays in the pose.
     * MOTION_MATCH nodes report their character's motion (see the top of this file). */
    const tdn_root_track_desc *root_motion;
    int extract_root_motion;
    /* With root_motion: per clip (clip_count entries), a root track of that clip built for
     * root_motion to use instead of building one (a runtime pack's, tdn_pack_root_track; not
     * owned, must outlive the graph). NULL, or a NULL entry, and the graph builds the track;
     * an additive clip's entry is NULL. A track built for another clip or desc is an error. */
    const tdn_root_track *const *root_tracks;
    /* IK jobs run after the layers, in order (copied). */
    const tdn_graph_ik_desc *ik;
    int ik_count;
    /* 1: each instance keeps a clip cache (clip_cache.h) per clip node that plays a COMPRESSED
     * clip, so that playing it forward mostly interpolates (the same bits; tdn_clip_cache_bytes
     * per such node in the instance: about 110 bytes per joint, tdn_graph_instance_bytes); 0:
     * none. */
    int clip_caches;
} tdn_graph_desc;

typedef struct tdn_graph tdn_graph;
typedef struct tdn_graph_instance tdn_graph_instance;

/* Builds a graph definition: resolves parameter names, checks node types, input counts and
 * indices, cycles, that the root reaches every clip of an additive difference only through
 * additive clips (and other clips never), blend-space dimensions against their position,
 * sync-group members loop, and the mirror table. On failure *out is NULL, nothing stays
 * allocated and `err` names the node ("nodes[3] 'walk'"), parameter or clip. Not for the
 * frame loop. Allocates through `allocator` (NULL: malloc). */
TDN_API tdn_result tdn_graph_create(const tdn_graph_desc *desc, tdn_graph **out, const tdn_allocator *allocator,
                                    tdn_error *err);
/* Frees the graph; NULL is ignored. Destroy its instances first. */
TDN_API void tdn_graph_destroy(tdn_graph *graph);
/* Number of nodes; 0 for NULL. */
TDN_API int tdn_graph_node_count(const tdn_graph *graph);
/* A node's name ("" when unnamed), owned by the graph; NULL for a bad index. */
TDN_API const char *tdn_graph_node_name(const tdn_graph *graph, int node);
TDN_API int tdn_graph_param_count(const tdn_graph *graph);
/* A parameter's handle (its index), or -1: resolve names once, set values by handle. */
TDN_API int tdn_graph_find_param(const tdn_graph *graph, const char *name);
/* A parameter's name, owned by the graph; NULL for a bad index. */
TDN_API const char *tdn_graph_param_name(const tdn_graph *graph, int param);
/* A parameter's type (TDN_PARAM_FLOAT for a bad index). */
TDN_API tdn_param_type tdn_graph_param_type(const tdn_graph *graph, int param);
/* "float", "int", "bool", "trigger", "vec2", "vec3" (the graph format's names); NULL for a value
 * outside the enum. */
TDN_API const char *tdn_param_type_name(tdn_param_type type);

/* ---- instances ---- */

/* Alignment of the memory tdn_graph_instance_init takes. */
#define TDN_GRAPH_INSTANCE_ALIGN 64

/* An instance holds one character's state and nothing else: parameters, players, machines,
 * springs, inertialization offsets, root motion, foot placement. What an evaluation writes
 * before it reads (scratch poses, the flat list's inputs, model-space matrices for IK) is in a
 * workspace (below), which one thread reuses for every character it evaluates. */

/* Bytes of an instance's state, for tdn_graph_instance_init. */
TDN_API size_t tdn_graph_instance_bytes(const tdn_graph *graph);
/* An instance in caller memory (aligned to TDN_GRAPH_INSTANCE_ALIGN, at least
 * tdn_graph_instance_bytes), at the parameters' initial values with every clip at its start.
 * It has no workspace of its own: evaluate it with tdn_graph_evaluate_with or
 * tdn_graph_evaluate_batch. Release it by dropping the memory (tdn_graph_instance_destroy is
 * for created ones only). TDN_ERR_ARGUMENT for NULL or misaligned memory,
 * TDN_ERR_OUT_OF_MEMORY when `bytes` is too small; on failure *out is NULL. */
TDN_API tdn_result tdn_graph_instance_init(const tdn_graph *graph, void *memory, size_t bytes, tdn_graph_instance **out,
                                           tdn_error *err);
/* The same in memory from `allocator` (NULL: malloc), with a workspace of its own in the same
 * allocation so that tdn_graph_evaluate works on it alone (the simple way for a few
 * characters; crowds share workspaces). TDN_ERR_ARGUMENT for NULL or half-set allocator hooks,
 * TDN_ERR_OUT_OF_MEMORY when the allocator fails; on failure *out is NULL. */
TDN_API tdn_result tdn_graph_instance_create(const tdn_graph *graph, tdn_graph_instance **out,
                                             const tdn_allocator *allocator, tdn_error *err);
/* Frees a created instance; NULL is ignored (one from tdn_graph_instance_init is not freed). */
TDN_API void tdn_graph_instance_destroy(tdn_graph_instance *instance);
/* The graph the instance runs (the caller's). */
TDN_API const tdn_graph *tdn_graph_instance_graph(const tdn_graph_instance *instance);

/* ---- workspaces: scratch memory for evaluating, one per thread ----
 *
 * A workspace made for a set of graphs serves instances of any of them, one evaluation at a
 * time: give each thread its own. Its contents never change a result (every evaluation writes
 * what it reads), so any character may use any workspace. Switching a workspace between graphs
 * sets its poses up again: sort a mixed batch by graph. */

typedef struct tdn_graph_workspace tdn_graph_workspace;

/* Alignment of the memory tdn_graph_workspace_init takes. */
#define TDN_GRAPH_WORKSPACE_ALIGN 64

/* Bytes a workspace for these graphs needs (the largest of each of their needs); 0 when
 * `graphs` is NULL, `graph_count` < 1 or a graph is NULL. */
TDN_API size_t tdn_graph_workspace_bytes(const tdn_graph *const *graphs, int graph_count);
/* A workspace in caller memory (aligned to TDN_GRAPH_WORKSPACE_ALIGN, at least
 * tdn_graph_workspace_bytes). TDN_ERR_ARGUMENT for NULL arguments (naming graphs[i]) or
 * misaligned memory, TDN_ERR_OUT_OF_MEMORY when `bytes` is too small; on failure *out is NULL. */
TDN_API tdn_result tdn_graph_workspace_init(const tdn_graph *const *graphs, int graph_count, void *memory, size_t bytes,
                                            tdn_graph_workspace **out, tdn_error *err);
/* The same in memory from `allocator` (NULL: malloc). */
TDN_API tdn_result tdn_graph_workspace_create(const tdn_graph *const *graphs, int graph_count,
                                              tdn_graph_workspace **out, const tdn_allocator *allocator,
                                              tdn_error *err);
/* Frees a created workspace; NULL and ones from tdn_graph_workspace_init are ignored. */
TDN_API void tdn_graph_workspace_destroy(tdn_graph_workspace *workspace);

/* ---- retargeted instances: a graph driving another character ----
 *
 * A retargeted instance runs the graph on the graph's skeleton (the retarget's source) and
 * writes its output on another character's (the retarget's target, retarget.h): motion
 * matching or a state machine made for one skeleton drives any humanoid, live. Each update and
 * evaluate is the plain instance's, then:
 *   tdn_graph_evaluate  writes tdn_retarget_pose of the graph's own pose (kept in the
 *                       instance's memory: tdn_graph_source_pose) into `out`, a pose of the
 *                       target's joint count; IK jobs run before it, on the graph's pose;
 *   tdn_graph_root_motion  reports the graph's root motion with its translation and linear
 *                       velocity times tdn_retarget_scale, as tdn_retarget_pose scales the
 *                       hips' travel; the turn is the same, and so is the character's frame
 *                       (both reference poses face +Z).
 * Everything else an instance reports (entries, joint velocities, IK and foot placement) is of
 * the graph's skeleton. Evaluating never allocates. The retarget is not copied: it must
 * outlive the instance, and any number of instances may share it. The retarget moves the
 * target's hips by the source's offset from its reference pose: for the target to stand where
 * the graph's character stands, make it from reference poses whose hips stand over the origin
 * (graph documents do; docs/retarget.md, "Driving another character from a graph"). The output
 * has no contact fix-up: the caller, who knows where the character stands, applies
 * tdn_retarget_contacts to it with tdn_graph_source_pose and its own tdn_retarget_state. */

/* Bytes a retargeted instance needs (NULL retarget: tdn_graph_instance_bytes). */
TDN_API size_t tdn_graph_instance_bytes_retargeted(const tdn_graph *graph, const tdn_retarget *retarget);
/* A retargeted instance in caller memory, as tdn_graph_instance_init (NULL retarget: a plain
 * instance). TDN_ERR_ARGUMENT naming `retarget` when its source skeleton's joint count is not
 * the graph's. */
TDN_API tdn_result tdn_graph_instance_init_retargeted(const tdn_graph *graph, const tdn_retarget *retarget,
                                                      void *memory, size_t bytes, tdn_graph_instance **out,
                                                      tdn_error *err);
/* The same in memory from `allocator`, as tdn_graph_instance_create; destroyed with
 * tdn_graph_instance_destroy. */
TDN_API tdn_result tdn_graph_instance_create_retargeted(const tdn_graph *graph, const tdn_retarget *retarget,
                                                        tdn_graph_instance **out, const tdn_allocator *allocator,
                                                        tdn_error *err);
/* The retarget an instance writes its output through; NULL for a plain instance. */
TDN_API const tdn_retarget *tdn_graph_instance_retarget(const tdn_graph_instance *instance);
/* A retargeted instance's pose on the graph's skeleton in the last tdn_graph_evaluate (the
 * pose the retarget read; the rest pose before the first), owned by the instance; NULL for a
 * plain instance, whose evaluate writes that pose into `out` itself. */
TDN_API const tdn_pose *tdn_graph_source_pose(const tdn_graph_instance *instance);

/* Setting parameters (by handle; TDN_ERR_ARGUMENT for a bad handle, a type that does not
 * take the value, or a non-finite number; the value is then unchanged). A smoothed parameter
 * glides towards what is set. Ints and bools are stored as whole numbers. */
TDN_API tdn_result tdn_graph_set_float(tdn_graph_instance *instance, int param, float value, tdn_error *err);
TDN_API tdn_result tdn_graph_set_int(tdn_graph_instance *instance, int param, int value, tdn_error *err);
TDN_API tdn_result tdn_graph_set_bool(tdn_graph_instance *instance, int param, int value, tdn_error *err);
TDN_API tdn_result tdn_graph_fire_trigger(tdn_graph_instance *instance, int param, tdn_error *err);
/* A VEC2 takes 2 floats, a VEC3 3. */
TDN_API tdn_result tdn_graph_set_vector(tdn_graph_instance *instance, int param, const float *value, tdn_error *err);
/* The same by name (a lookup per call: resolve handles for per-frame use); an unknown name is
 * TDN_ERR_ARGUMENT. */
TDN_API tdn_result tdn_graph_set_float_named(tdn_graph_instance *instance, const char *name, float value,
                                             tdn_error *err);
TDN_API tdn_result tdn_graph_set_int_named(tdn_graph_instance *instance, const char *name, int value, tdn_error *err);
TDN_API tdn_result tdn_graph_set_bool_named(tdn_graph_instance *instance, const char *name, int value, tdn_error *err);
TDN_API tdn_result tdn_graph_fire_trigger_named(tdn_graph_instance *instance, const char *name, tdn_error *err);
TDN_API tdn_result tdn_graph_set_vector_named(tdn_graph_instance *instance, const char *name, const float *value,
                                              tdn_error *err);
/* The value nodes read (after smoothing), component `component` (0 for scalars). */
TDN_API float tdn_graph_param_value(const tdn_graph_instance *instance, int param, int component);

/* One entry of the flat list. `clip` is the index into the description's clips, or one of
 * TDN_ENTRY_REST (the rest pose), TDN_ENTRY_PROCEDURAL (`node`'s callback pose),
 * TDN_ENTRY_MODIFIER (`node`'s modified pose, made from the entries whose `group` is that
 * node) and TDN_ENTRY_MOTION_MATCH (`node`'s controller pose; `time` is the database frame it
 * plays). `node` is the first node that contributed it; `group` the modifier node whose input
 * it is part of, or -1 for the layer itself. Weights of base entries sum to 1 within a group;
 * an additive entry's weight scales its difference. */
#define TDN_ENTRY_REST (-1)
#define TDN_ENTRY_PROCEDURAL (-2)
#define TDN_ENTRY_MODIFIER (-3)
#define TDN_ENTRY_MOTION_MATCH (-4)

typedef struct tdn_graph_entry {
    int clip;
    int node;
    float time;
    float weight;
    int additive;
    int mirror;
    int group;
} tdn_graph_entry;

/* Advances the instance by dt seconds (>= 0; a negative or non-finite dt counts as 0): see
 * the top of this file. Fired triggers are cleared at the end. */
TDN_API tdn_result tdn_graph_update(tdn_graph_instance *instance, float dt, tdn_error *err);
/* Samples and blends the flat list of the last update into `out` (the skeleton's joint
 * count; a retargeted instance's target's), in the instance's own workspace (created
 * instances). Before any update, the list is that of a zero-length update. TDN_ERR_ARGUMENT
 * for an instance placed by tdn_graph_instance_init, which has none. */
TDN_API tdn_result tdn_graph_evaluate(tdn_graph_instance *instance, tdn_pose *out, tdn_error *err);
/* The same in `workspace` (made for the instance's graph, or for a set of graphs that includes
 * one at least as large: TDN_ERR_ARGUMENT naming `workspace` otherwise). */
TDN_API tdn_result tdn_graph_evaluate_with(tdn_graph_instance *instance, tdn_graph_workspace *workspace, tdn_pose *out,
                                           tdn_error *err);
/* ---- batch evaluation: many characters in one call ----
 *
 * One call updates and evaluates N characters (instances of one graph or of several) into the
 * caller's buffers, split into tasks of a few characters that the caller's parallel-for runs
 * (a game's job system), or serially on the calling thread. Each character's results are
 * bit-identical to updating and evaluating it alone, whatever the split and the threads. Never
 * allocates. */

/* One character of a batch: its instance, updated by `dt` seconds (a negative dt: not
 * updated, only evaluated) then evaluated; its outputs, each optional: `pose` (its local
 * pose), `model` (model-space matrices, the root at the identity) and `palette` (its skinning
 * palette, tdn_palette). What is not asked for stays in the workspace: a crowd that only
 * draws keeps palettes alone. Sizes are the skeleton's joint count; `skeleton` is the one
 * `model` and `palette` are of: NULL for the graph's (a retargeted instance's target skeleton
 * must be given). */
typedef struct tdn_graph_lod tdn_graph_lod; /* "level of detail", below */
typedef struct tdn_joint_lod tdn_joint_lod; /* "joint level of detail", below */
typedef struct tdn_graph_character {
    tdn_graph_instance *instance;
    float dt;
    tdn_pose *pose;    /* NULL: not kept */
    tdn_mat4 *model;   /* NULL: not kept */
    tdn_mat4 *palette; /* NULL: not computed */
    const tdn_skeleton *skeleton;
    tdn_graph_lod *lod;             /* NULL: evaluated every frame */
    const tdn_joint_lod *joint_lod; /* NULL: every joint */
} tdn_graph_character;

/* A task of a batch: characters [task * characters_per_task, ...) in workspaces[worker]. */
typedef void (*tdn_graph_task_fn)(void *context, int task, int worker);
/* The caller's parallel-for: runs task(context, t, worker) once for every t in
 * [0, task_count), on any threads, in any order, and returns when all have finished. `worker`
 * (0 .. worker_count - 1) names the workspace a task uses: tasks running at the same time
 * must have different workers (a thread's index in a pool does). */
typedef void (*tdn_parallel_for_fn)(void *user, int task_count, tdn_graph_task_fn task, void *context);
/* The caller's per-character step before its update, on the task's thread: setting the
 * character's parameters from game state there spreads that work over the threads too. */
typedef void (*tdn_graph_prepare_fn)(void *user, int character, tdn_graph_instance *instance);

typedef struct tdn_graph_batch_desc {
    tdn_graph_character *characters;
    int character_count;
    /* One workspace per worker, each made for every graph of the batch's instances. */
    tdn_graph_workspace *const *workspaces;
    int worker_count;
    tdn_parallel_for_fn parallel_for; /* NULL: every task in turn on this thread, worker 0 */
    void *parallel_user;
    int characters_per_task;      /* 0: 16 */
    tdn_graph_prepare_fn prepare; /* NULL: none */
    void *prepare_user;
} tdn_graph_batch_desc;

/* Checks every character first (TDN_ERR_ARGUMENT naming it, "characters[12].pose", and
 * nothing is updated), then runs the batch. Sort characters by graph: a workspace switching
 * graphs sets its poses up again. */
TDN_API tdn_result tdn_graph_evaluate_batch(const tdn_graph_batch_desc *desc, tdn_error *err);

/* ---- level of detail: update rates and the budget ----
 *
 * A character far away need not be evaluated every frame. With a tdn_graph_lod in its batch
 * entry, the batch still updates it every frame (tdn_graph_update is cheap, and its root motion,
 * events and state stay exactly those of full rate), but evaluates it only every rate-th frame;
 * in between, the pose it shows moves towards the last evaluated one (per joint: translation and
 * scale lerped, rotation nlerped the short way), a fraction 1/(frames left before the
 * next evaluation) each frame, so that it arrives the frame before the next evaluation. The shown
 * pose is thus the evaluated motion delayed by rate - 1 frames, without jumps: a rate of 8 at
 * 60 Hz shows the pose 117 ms late. Model space and the palette are computed from the shown pose
 * every frame. At rate 1 the outputs are the same bits as without a tdn_graph_lod.
 *
 * When the graph extracts root motion (or plays motion matching, whose motion is always
 * extracted), the character moves in the world by the update's root motion every frame while
 * the shown and evaluated poses stay where they were evaluated: both are re-expressed in the
 * character's new frame each frame (their parentless joints moved by the inverse of the root
 * motion step), so feet planted in the world stay planted, and the body trails the character's
 * frame by the distance it covers in rate - 1 frames.
 *
 * The state is the caller's: two poses of the output's joint count (`shown` may be the
 * character's `pose` output; then leave it alone between frames), zero-initialized otherwise.
 * The first frame of a character evaluates. A change of rate takes effect at once: the shown
 * pose keeps moving towards the target, reaching it by the frame before the new rate's next
 * evaluation (a rate lowered to 1 finishes the approach in one frame). Characters evaluate
 * when their clock is a multiple of their rate: start the clocks at different values (the
 * character's index) so that each frame evaluates an even share of the crowd. */
struct tdn_graph_lod {
    int rate;         /* evaluate every rate-th frame: 1, 2, 4, 8...; below 1 counts as 1 */
    unsigned clock;   /* the character's frame count, advanced by every batch */
    tdn_pose *shown;  /* the pose shown (the outputs are made from it) */
    tdn_pose *target; /* the last evaluated pose, which `shown` approaches */
    int primed;       /* tendon's: 0 until the first evaluation */
    int arrived;      /* tendon's: `shown` has reached `target` */
};

/* The budget mode's inputs: a frame's time for the batch and what a character-frame costs, in
 * the same unit (wall time of the batch: divide one thread's costs by the threads that share the
 * work). tendon reads no clock: the caller times its batches and corrects the estimates. */
typedef struct tdn_graph_lod_budget {
    double budget_ns;       /* the batch's time per frame */
    double evaluated_ns;    /* a character-frame that evaluates (update, evaluate, model space, palette) */
    double interpolated_ns; /* one that does not (update, approach, model space, palette) */
    int max_rate;           /* the largest rate, a power of two up to 1024; 0: 4 (on the BlendMotion
                             * crowd, rate 8 nearly triples the foot skate: docs/benchmarks.md) */
} tdn_graph_lod_budget;

/* Chooses each character's rate from its importance (larger: more important, for example the
 * inverse of its distance; 0, negative or NaN: the least): rates[k] is the largest power of two
 * at most s / importance[k], within [1, max_rate], for the smallest scale s at which the crowd's
 * cost fits the budget. A character at rate r costs interpolated_ns + (evaluated_ns -
 * interpolated_ns) / r per frame (staggered clocks spread its evaluations); *cost_ns (optional)
 * receives the crowd's. Rates so follow distance: twice as far, twice the interval, which keeps
 * the interpolation's error on screen (the motion of an interval, seen at a size inversely
 * proportional to distance) about even over the crowd. Rates never increase with importance;
 * when even every character at max_rate exceeds the budget, every character gets max_rate (and
 * *cost_ns says by how much). A pure function: no clock, no allocation. TDN_ERR_ARGUMENT for
 * NULL arrays, a negative count, costs that are not finite and >= 0 with evaluated_ns >=
 * interpolated_ns, or a max_rate that is not a power of two (naming the field). */
TDN_API tdn_result tdn_graph_lod_choose_rates(const float *importance, int count, const tdn_graph_lod_budget *budget,
                                              int *rates, double *cost_ns, tdn_error *err);

/* ---- joint level of detail: subtrees left out ----
 *
 * A character far away shows no fingers or face: with a tdn_joint_lod in its batch entry, the
 * batch evaluates only the joints the LOD keeps. Sampling, blending and composing run on the
 * kept joints' SIMD blocks (TDN_POSE_LANES joints; a block holding any kept joint is evaluated
 * whole, and so are gaps of up to 2 blocks between such blocks, cheaper than another call), IK
 * jobs whose joints include a dropped one are skipped (tdn_graph_ik_reached 0), and
 * model space and the palette are computed for the kept joints alone. A dropped joint never feeds
 * a kept one (a subtree's joints depend on their ancestors, never on their descendants), so every
 * kept joint's local transform, model matrix and palette entry are the same bits as without the
 * LOD. The dropped joints' entries in the character's pose, model and palette are left as they
 * were: draw the character with a mesh LOD that does not use them, as engines do. Update (root
 * motion, events, machines) is unchanged. With an update-rate tdn_graph_lod in the same entry,
 * the evaluations every rate-th frame and the approach between them work on the kept joints alone
 * (the dropped joints of its shown and target poses stay as they were), and every kept joint's
 * outputs are the same bits as with the update-rate LOD alone. Not yet with a retargeted
 * instance (TDN_ERR_ARGUMENT). Mirrored clips, modifiers,
 * procedural nodes, model-space-rotation layers and inertialization still work on whole poses
 * inside the workspace (exact for the kept joints; their cost is not cut). A character's LOD may
 * change from frame to frame: joints it brings back are evaluated from then on. */
#define TDN_JOINT_LOD_MAX_SPANS 16
typedef struct tdn_joint_span {
    int begin, end; /* joints [begin, end) */
} tdn_joint_span;
/* Plain data, made by tdn_joint_lod_init; immutable afterwards and shared by any characters of
 * its skeleton's joint count and threads. */
struct tdn_joint_lod {
    int joint_count;                                /* the skeleton's */
    int kept_count;                                 /* runs of kept joints, in order */
    tdn_joint_span kept[TDN_JOINT_LOD_MAX_SPANS];   /* exact: model space, palette, the pose output */
    int block_count;                                /* the same widened to whole SIMD blocks, near ones merged */
    tdn_joint_span blocks[TDN_JOINT_LOD_MAX_SPANS]; /* what evaluation samples and blends */
};
/* The LOD of `skeleton` that drops the subtrees of joints dropped[0 .. count) (each with all its
 * descendants: [j, tdn_skeleton_subtree_end(j)); count 0 keeps every joint). TDN_ERR_ARGUMENT
 * naming the place for a NULL skeleton, out or dropped (with count > 0), a negative count, a
 * joint out of range ("dropped[3]"), or kept joints that fall apart into more than
 * TDN_JOINT_LOD_MAX_SPANS runs. */
TDN_API tdn_result tdn_joint_lod_init(const tdn_skeleton *skeleton, const int *dropped, int count, tdn_joint_lod *out,
                                      tdn_error *err);
/* The same naming the subtrees' root joints (tdn_skeleton_find_joint; at most
 * 4 * TDN_JOINT_LOD_MAX_SPANS names); an unknown or NULL name is TDN_ERR_ARGUMENT naming it
 * ("names[2]"). The generated humanoid's fingers and face:
 * tdn_humanoid_detail_joints (tendon/io/humanoid.h). */
TDN_API tdn_result tdn_joint_lod_init_names(const tdn_skeleton *skeleton, const char *const *names, int count,
                                            tdn_joint_lod *out, tdn_error *err);

/* The flat list of the last update (valid until the next one), and its length. */
TDN_API int tdn_graph_entries(const tdn_graph_instance *instance, const tdn_graph_entry **entries);
/* Flat-list entries of one layer (they are grouped by layer, in layer order). */
TDN_API int tdn_graph_layer_entries(const tdn_graph_instance *instance, int layer, const tdn_graph_entry **entries);
TDN_API int tdn_graph_layer_count(const tdn_graph *graph);
/* A layer's name, owned by the graph; NULL for a bad index. */
TDN_API const char *tdn_graph_layer_name(const tdn_graph *graph, int layer);
/* A layer's weight in the last update (its parameter's value, clamped). */
TDN_API float tdn_graph_layer_weight(const tdn_graph_instance *instance, int layer);
/* How many entries the last update culled, and their total weight before renormalizing. */
TDN_API int tdn_graph_culled(const tdn_graph_instance *instance, float *culled_weight);
/* A clip node's time (seconds), or -1 for a node that is not a clip. */
TDN_API float tdn_graph_clip_time(const tdn_graph_instance *instance, int node);
/* A node's global weight in the last update (what the flat list was built from, before
 * culling and merging). */
TDN_API float tdn_graph_node_weight(const tdn_graph_instance *instance, int node);

/* The root motion of the last update (the identity motion when the graph has none; scaled
 * for a retargeted instance). TDN_ERR_ARGUMENT for a NULL instance or out. */
TDN_API tdn_result tdn_graph_root_motion(const tdn_graph_instance *instance, tdn_root_motion *out, tdn_error *err);

/* Every joint's linear and angular velocity (the layout of root_motion.h's velocity buffers:
 * translation rows linear, rotation rows x, y, z angular with w = 0, scale rows scale rates,
 * per second, in each joint's parent frame), blended like the pose of the last update: each
 * layer's clips' velocities at their times (tdn_clip_sample_velocity) by the flat list's
 * weights, mirrored with their clips, then composed as the layers are (an override layer lerps
 * by its weight times its mask, an additive layer adds its difference's velocity scaled the
 * same way); a MOTION_MATCH node's is its pose's change over its last step. Inertialization
 * offsets and extracted root motion are not in it. Uses the instance's own workspace (as
 * tdn_graph_evaluate does); never allocates. */
TDN_API tdn_result tdn_graph_joint_velocities(tdn_graph_instance *instance, tdn_pose *velocity, tdn_error *err);
/* The same in `workspace`, for instances without one of their own. */
TDN_API tdn_result tdn_graph_joint_velocities_with(tdn_graph_instance *instance, tdn_graph_workspace *workspace,
                                                   tdn_pose *velocity, tdn_error *err);

/* The ground foot placement queries, and the character's frame in the world (NULL: the
 * identity), for the instance's FOOT_PLACEMENT jobs; without a ground they do nothing.
 * TDN_ERR_ARGUMENT for a NULL instance. */
TDN_API tdn_result tdn_graph_set_ground(tdn_graph_instance *instance, tdn_ground_query ground, void *user,
                                        const tdn_mat4 *world, tdn_error *err);
/* Whether IK job `job` put its end on its target in the last evaluate (foot placement: every
 * leg). 0 for a job that did not run. */
TDN_API int tdn_graph_ik_reached(const tdn_graph_instance *instance, int job);
TDN_API int tdn_graph_ik_count(const tdn_graph *graph);
TDN_API tdn_graph_ik_kind tdn_graph_ik_kind_of(const tdn_graph *graph, int job);
/* A FOOT_PLACEMENT job's legs: how many (0 for other jobs), each leg's foot (its end joint), and
 * the contact the last evaluate used (the clips' contact curve blended, 0..1). */
TDN_API int tdn_graph_foot_count(const tdn_graph *graph, int job);
TDN_API int tdn_graph_foot_joint(const tdn_graph *graph, int job, int leg);
TDN_API float tdn_graph_foot_contact(const tdn_graph_instance *instance, int job, int leg);
/* The ankle's target the last evaluate's foot placement solved leg `leg` of job `job` for, in
 * the character's frame (model space; the job's weight applied): 1, or 0 when the last evaluate
 * did not run the job (no evaluate yet, weight 0, or its solve failed; then *target is
 * untouched). With the ankle's model-space position after
 * tdn_graph_evaluate it gives the IK error (docs/metrics.md). */
TDN_API int tdn_graph_foot_target(const tdn_graph_instance *instance, int job, int leg, tdn_vec3 *target);
/* Foot locking on (the default) or off: off, the feet are still planted on the ground but not
 * held where they landed (their contact is not passed on), for comparing foot skate.
 * TDN_ERR_ARGUMENT for a NULL instance. */
TDN_API tdn_result tdn_graph_set_foot_locking(tdn_graph_instance *instance, int enabled, tdn_error *err);

/* ---- state machines ---- */

/* What a state machine node is doing; TDN_ERR_ARGUMENT when `node` is not one. */
TDN_API tdn_result tdn_graph_state_machine_status(const tdn_graph_instance *instance, int node,
                                                  tdn_state_machine_status *out, tdn_error *err);
TDN_API int tdn_graph_state_count(const tdn_graph *graph, int node);
/* A state's name, owned by the graph; NULL when `node` is not a state machine or `state` is
 * out of range. */
TDN_API const char *tdn_graph_state_name(const tdn_graph *graph, int node, int state);
/* A state's index by name, or -1. */
TDN_API int tdn_graph_find_state(const tdn_graph *graph, int node, const char *name);
/* Goes to `state` by the shortest chain of transitions (fewest transitions; conditions are not
 * checked, exit times are), each taken as the fade before it completes. TDN_ERR_INVALID_DATA
 * when no chain leads there; travelling to the current state does nothing. A transition
 * taken by conditions meanwhile cancels the travel. */
TDN_API tdn_result tdn_graph_travel(tdn_graph_instance *instance, int node, int state, tdn_error *err);

/* ---- events ---- */

typedef enum tdn_graph_event_type {
    TDN_EVENT_STATE_ENTERED = 0,   /* node: the machine; index: the state */
    TDN_EVENT_STATE_EXITED,        /* index: the state (its fade-out completed) */
    TDN_EVENT_TRANSITION_STARTED,  /* index: the transition */
    TDN_EVENT_TRANSITION_FINISHED, /* index: the transition */
    TDN_EVENT_CLIP                 /* node: the clip node; index: the clip's event; clip: the clip */
} tdn_graph_event_type;

typedef struct tdn_graph_event {
    tdn_graph_event_type type;
    int node;
    int index;
    int clip;
    float weight; /* CLIP: the clip node's weight in its layer */
} tdn_graph_event;

/* Events one update keeps (each instance holds them: a crowd's memory counts them). */
#define TDN_MAX_GRAPH_EVENTS 32

/* Events of the last update, in the order they happened: state-machine events first, then the
 * events of clips with weight crossed by their time cursors (tdn_player_events). At most
 * TDN_MAX_GRAPH_EVENTS; `dropped` (optional) receives how many more there were. */
TDN_API int tdn_graph_events(const tdn_graph_instance *instance, const tdn_graph_event **events, int *dropped);

#ifdef __cplusplus
}
#endif
#endif
