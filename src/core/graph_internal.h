/* tendon core: the graph definition and instance layouts, shared by graph*.c (not installed). */
#ifndef TENDON_GRAPH_INTERNAL_H
#define TENDON_GRAPH_INTERNAL_H

#include "tendon/blend.h"
#include "tendon/graph.h"

/* A number a node reads, resolved: a parameter index or -1 for the constant. */
typedef struct tdn__value {
    int param;
    float constant;
} tdn__value;

typedef struct tdn__param {
    char name[TDN_MAX_PARAM_NAME];
    tdn_param_type type;
    int components;      /* 1, 2 or 3 */
    float initial[3];
    float half_life;
} tdn__param;

typedef struct tdn__node {
    tdn_node_type type;
    char name[64];
    int first_input, input_count;   /* into tdn_graph.inputs */
    tdn__value value;
    int first_value;                /* BLENDN: into tdn_graph.values */
    /* CLIP */
    int clip;
    float rate, start;
    tdn_wrap wrap;
    int mirror;
    int sync_group;                 /* -1: none */
    int clip_slot;                  /* index among clip nodes (players, markers) */
    int first_marker, marker_count; /* sync markers of this clip node, sorted by time */
    /* SWITCH */
    float fade;
    int switch_slot;                /* first of its input weights in the instance */
    /* BLEND_SPACE */
    const tdn_blend_space *space;
    int first_axis, axis_count;     /* float parameters into tdn_graph.axes, or one vector */
    /* Reached through an ADDITIVE node's difference input. */
    int additive;
} tdn__node;

/* One sync marker of a clip node: its time and which of the group's marker names it is. */
typedef struct tdn__marker {
    float time;
    int name;                       /* index into the group's names */
    int occurrence;                 /* how many earlier markers of the clip share the name */
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
    int *order;                     /* reachable nodes, every node before its inputs */
    int order_count;
    int *clip_nodes;                /* node index of each clip slot */
    int clip_node_count;
    int switch_weight_count;
    tdn__sync_group *groups;
    int group_count;
    int *members;
    tdn__marker *markers;
    int *mirror;                    /* NULL when no node mirrors */
    float cull_threshold;
    int entry_capacity;             /* clip nodes + 1 (the rest pose) */
    size_t instance_bytes;
};

/* A parameter's state: what the caller set (target) and what nodes read (value), with the
 * spring's velocity for smoothed ones. */
typedef struct tdn__param_state {
    float target[3], value[3], velocity[3];
    int fired;
} tdn__param_state;

typedef struct tdn__group_state {
    float phase;                    /* the leader's normalized time */
    int leader;                     /* clip node, or -1 before the first update */
} tdn__group_state;

struct tdn_graph_instance {
    const tdn_graph *graph;
    tdn_allocator allocator;        /* set when created, zero when in caller memory */
    size_t bytes;
    int created;
    tdn__param_state *params;
    float *node_weight;
    float *node_rate;
    tdn_player *players;            /* per clip slot */
    float *switch_weights;
    tdn__group_state *groups;
    tdn_graph_entry *entries;
    int entry_count;
    int culled;
    float culled_weight;
    tdn_pose *poses;                /* entry_capacity scratch poses */
    tdn_pose rest;
    tdn_blend_input *layers, *additives;
};

/* The value of a resolved number in an instance. */
float tdn__graph_value(const tdn_graph_instance *instance, tdn__value v);

/* Steps of tdn_graph_update, in order (graph_params.c, graph_weights.c, graph_sync.c,
 * graph_flatten.c). */
void tdn__graph_params_advance(tdn_graph_instance *instance, float dt);
void tdn__graph_switches_advance(tdn_graph_instance *instance, float dt);
void tdn__graph_weights(tdn_graph_instance *instance);
void tdn__graph_advance_clips(tdn_graph_instance *instance, float dt);
void tdn__graph_flatten(tdn_graph_instance *instance);
/* Sets every switch's weights to its current selection (at instance start). */
void tdn__graph_switches_reset(tdn_graph_instance *instance);

#endif
