/* tendon core: a graph definition (tdn_graph_desc) as bytes and back. One table per struct
 * says what each field is (a number, a string, an array and how its length is known), and one
 * writer and one reader walk the tables, so a field added to a desc is one line here.
 *
 * The image: 4-byte little-endian words; 'GDEF', the version, then the tdn_graph_desc record.
 * A record holds one word per field (three for a vec3, a nested record's words inline); an
 * array field's word is the byte offset of a block [count][elements] from the image's start,
 * 0 for NULL; a string's block is [length][bytes, a zero, padding to 4]. Strings, int and float
 * arrays are used where they lie; records are rebuilt in memory the reader allocates once. */
#include "graph_definition.h"

#include <stdarg.h>
#include <stdio.h>

#include "pack_internal.h"
#include "tendon/ik_chain.h"
#include "tendon/packed_graph.h"

#define IMAGE_MAGIC TDN_PACK_FOURCC('G', 'D', 'E', 'F')
/* The most markers of a sync group (a graph document's limit). */
#define MAX_MARKERS 64
/* The longest string (a name). */
#define MAX_STRING 4096
#define HEADER_WORDS 2

typedef enum kind {
    K_INT,      /* int32 */
    K_FLOAT,    /* f32, finite */
    K_FLOAT3,   /* three f32 (a tdn_vec3, float[3]) */
    K_ENUM,     /* int32 in [0, max] */
    K_STRING,   /* a string block, or 0: NULL */
    K_RECORD,   /* a nested record, inline */
    K_RECORDS,  /* `max` nested records, inline (an array member of fixed size) */
    K_ARRAY,    /* an array block of `elem` (K_INT, K_FLOAT, K_STRING) or of records of `of` */
    K_CALLBACK, /* a string block: the callback's name (the pointer is bound at load) */
    K_SPACE     /* a blend space: a block of one record of the space's desc */
} kind;

/* How an array's length is known from what was read before it. */
typedef enum count_rule {
    BY_FIELD,  /* the int at count_at in the same record */
    BY_JOINTS, /* the skeleton's joint count */
    BY_CHAIN,  /* an IK job's chain (tdn_ik_chain_path from root to end; two-bone and feet: any) */
    BY_DIMS,   /* the node's blend space's dimensions */
    BY_LEGS,   /* the IK job's feet's leg count */
    BY_POINTS, /* a blend space desc's dimensions times samples */
    ONE        /* a pointer to one record */
} count_rule;

typedef struct schema schema;

typedef struct field {
    const char *name;
    unsigned char kind, elem, rule;
    unsigned short at;       /* offsetof in the native struct */
    unsigned short count_at; /* BY_FIELD */
    int max;                 /* K_ENUM: the largest value; K_ARRAY: the most elements; K_RECORDS: how many */
    const schema *of;        /* K_RECORD, K_RECORDS, K_ARRAY of records, K_SPACE */
} field;

struct schema {
    const char *name;
    size_t size, align;
    const field *fields;
    int field_count;
    int id; /* S_* */
};

/* clang-format off */
#define FIELDS(t, list, id) { #t, sizeof(t), _Alignof(t), list, (int)(sizeof list / sizeof list[0]), id }
#define INT(t, f) { #f, K_INT, 0, 0, offsetof(t, f), 0, 0, NULL }
#define FLOAT(t, f) { #f, K_FLOAT, 0, 0, offsetof(t, f), 0, 0, NULL }
#define FLOAT3(t, f) { #f, K_FLOAT3, 0, 0, offsetof(t, f), 0, 0, NULL }
#define ENUM(t, f, last) { #f, K_ENUM, 0, 0, offsetof(t, f), 0, last, NULL }
#define STRING(t, f) { #f, K_STRING, 0, 0, offsetof(t, f), 0, 0, NULL }
#define RECORD(t, f, s) { #f, K_RECORD, 0, 0, offsetof(t, f), 0, 0, &s }
#define RECORDS(t, f, s, n) { #f, K_RECORDS, 0, 0, offsetof(t, f), 0, n, &s }
#define ARRAY(t, f, e, rule, count, most) { #f, K_ARRAY, e, rule, offsetof(t, f), count, most, NULL }
#define ARRAY_OF(t, f, s, rule, count, most) { #f, K_ARRAY, K_RECORD, rule, offsetof(t, f), count, most, &s }
/* clang-format on */

/* The schemas, by id (a reader keeps each one's layout). */
enum {
    S_VALUE,
    S_EASE,
    S_PARAM,
    S_CONDITION,
    S_TRANSITION,
    S_STATE,
    S_MACHINE,
    S_SPACE,
    S_NODE,
    S_GROUP,
    S_LAYER,
    S_ROOT,
    S_LIMIT,
    S_LEG,
    S_FEET,
    S_IK,
    S_GRAPH,
    SCHEMA_COUNT
};

static const field value_fields[] = { STRING(tdn_node_value, param), FLOAT(tdn_node_value, constant) };
static const schema value_schema = FIELDS(tdn_node_value, value_fields, S_VALUE);

static const field ease_fields[] = { ENUM(tdn_ease, kind, TDN_EASE_BEZIER), FLOAT(tdn_ease, x1), FLOAT(tdn_ease, y1),
                                     FLOAT(tdn_ease, x2), FLOAT(tdn_ease, y2) };
static const schema ease_schema = FIELDS(tdn_ease, ease_fields, S_EASE);

static const field param_fields[] = { STRING(tdn_param_desc, name), ENUM(tdn_param_desc, type, TDN_PARAM_VEC3),
                                      FLOAT3(tdn_param_desc, value), FLOAT(tdn_param_desc, half_life) };
static const schema param_schema = FIELDS(tdn_param_desc, param_fields, S_PARAM);

static const field condition_fields[] = { STRING(tdn_condition_desc, param),
                                          ENUM(tdn_condition_desc, compare, TDN_COMPARE_FALSE),
                                          FLOAT(tdn_condition_desc, value) };
static const schema condition_schema = FIELDS(tdn_condition_desc, condition_fields, S_CONDITION);

static const field transition_fields[] = {
    INT(tdn_transition_desc, from),
    INT(tdn_transition_desc, to),
    INT(tdn_transition_desc, condition_count),
    ARRAY_OF(tdn_transition_desc, conditions, condition_schema, BY_FIELD,
             offsetof(tdn_transition_desc, condition_count), TDN_MAX_TRANSITION_CONDITIONS),
    FLOAT(tdn_transition_desc, exit_time),
    FLOAT(tdn_transition_desc, duration),
    INT(tdn_transition_desc, duration_normalized),
    RECORD(tdn_transition_desc, curve, ease_schema),
    ENUM(tdn_transition_desc, mode, TDN_TRANSITION_INERTIALIZE),
    INT(tdn_transition_desc, priority),
    INT(tdn_transition_desc, uninterruptible),
    INT(tdn_transition_desc, sync_phase),
};
static const schema transition_schema = FIELDS(tdn_transition_desc, transition_fields, S_TRANSITION);

static const field state_fields[] = { STRING(tdn_state_desc, name) };
static const schema state_schema = FIELDS(tdn_state_desc, state_fields, S_STATE);

static const field machine_fields[] = {
    INT(tdn_state_machine_desc, state_count),
    ARRAY_OF(tdn_state_machine_desc, states, state_schema, BY_FIELD, offsetof(tdn_state_machine_desc, state_count),
             TDN_MAX_STATES),
    INT(tdn_state_machine_desc, transition_count),
    ARRAY_OF(tdn_state_machine_desc, transitions, transition_schema, BY_FIELD,
             offsetof(tdn_state_machine_desc, transition_count), TDN_MAX_GRAPH_TRANSITIONS),
    INT(tdn_state_machine_desc, initial),
};
static const schema machine_schema = FIELDS(tdn_state_machine_desc, machine_fields, S_MACHINE);

static const field space_fields[] = {
    ENUM(tdn_blend_space_desc, mode, TDN_BLEND_SPACE_RBF),
    INT(tdn_blend_space_desc, dimensions),
    INT(tdn_blend_space_desc, sample_count),
    ARRAY(tdn_blend_space_desc, points, K_FLOAT, BY_POINTS, 0,
          TDN_MAX_BLEND_SPACE_SAMPLES *TDN_MAX_BLEND_SPACE_DIMENSIONS),
};
static const schema space_schema = FIELDS(tdn_blend_space_desc, space_fields, S_SPACE);

static const field node_fields[] = {
    ENUM(tdn_node_desc, type, TDN_NODE_MODIFIER), /* motion-matching nodes are not saved */
    STRING(tdn_node_desc, name),
    INT(tdn_node_desc, input_count),
    ARRAY(tdn_node_desc, inputs, K_INT, BY_FIELD, offsetof(tdn_node_desc, input_count), TDN_MAX_GRAPH_NODES),
    RECORD(tdn_node_desc, value, value_schema),
    ARRAY_OF(tdn_node_desc, values, value_schema, BY_FIELD, offsetof(tdn_node_desc, input_count), TDN_MAX_GRAPH_NODES),
    INT(tdn_node_desc, clip),
    FLOAT(tdn_node_desc, rate),
    ENUM(tdn_node_desc, wrap, TDN_WRAP_PINGPONG),
    FLOAT(tdn_node_desc, start),
    FLOAT(tdn_node_desc, lead_in),
    FLOAT(tdn_node_desc, lead_out),
    INT(tdn_node_desc, mirror),
    STRING(tdn_node_desc, sync_group),
    FLOAT(tdn_node_desc, fade),
    { "space", K_SPACE, 0, ONE, offsetof(tdn_node_desc, space), 0, 1, &space_schema },
    STRING(tdn_node_desc, position),
    ARRAY(tdn_node_desc, axes, K_STRING, BY_DIMS, 0, TDN_MAX_BLEND_SPACE_DIMENSIONS),
    ARRAY_OF(tdn_node_desc, state_machine, machine_schema, ONE, 0, 1),
    { "callback", K_CALLBACK, 0, 0, offsetof(tdn_node_desc, callback), 0, 0, NULL },
    ENUM(tdn_node_desc, modifier, TDN_MODIFIER_DAMP),
    INT(tdn_node_desc, joint_count),
    ARRAY(tdn_node_desc, joints, K_INT, BY_FIELD, offsetof(tdn_node_desc, joint_count), TDN_MAX_JOINTS),
    ARRAY(tdn_node_desc, joint_weights, K_FLOAT, BY_FIELD, offsetof(tdn_node_desc, joint_count), TDN_MAX_JOINTS),
    FLOAT3(tdn_node_desc, axis),
    FLOAT(tdn_node_desc, half_life),
    STRING(tdn_node_desc, velocity),
    STRING(tdn_node_desc, facing),
};
static const schema node_schema = FIELDS(tdn_node_desc, node_fields, S_NODE);

static const field group_fields[] = {
    STRING(tdn_sync_group_desc, name),
    INT(tdn_sync_group_desc, marker_count),
    ARRAY(tdn_sync_group_desc, markers, K_STRING, BY_FIELD, offsetof(tdn_sync_group_desc, marker_count), MAX_MARKERS),
};
static const schema group_schema = FIELDS(tdn_sync_group_desc, group_fields, S_GROUP);

static const field layer_fields[] = {
    STRING(tdn_layer_desc, name),
    INT(tdn_layer_desc, root),
    RECORD(tdn_layer_desc, weight, value_schema),
    ENUM(tdn_layer_desc, mode, TDN_LAYER_ADDITIVE),
    ARRAY(tdn_layer_desc, mask, K_FLOAT, BY_JOINTS, 0, TDN_MAX_JOINTS),
    INT(tdn_layer_desc, model_space_rotation),
};
static const schema layer_schema = FIELDS(tdn_layer_desc, layer_fields, S_LAYER);

static const field root_fields[] = { INT(tdn_root_track_desc, joint),
                                     ENUM(tdn_root_track_desc, rotation, TDN_ROOT_NO_ROTATION),
                                     INT(tdn_root_track_desc, keep_vertical), FLOAT3(tdn_root_track_desc, up) };
static const schema root_schema = FIELDS(tdn_root_track_desc, root_fields, S_ROOT);

static const field limit_fields[] = { FLOAT(tdn_ik_limit, cone), FLOAT(tdn_ik_limit, twist) };
static const schema limit_schema = FIELDS(tdn_ik_limit, limit_fields, S_LIMIT);

static const field leg_fields[] = { INT(tdn_foot_leg, upper), INT(tdn_foot_leg, middle), INT(tdn_foot_leg, end) };
static const schema leg_schema = FIELDS(tdn_foot_leg, leg_fields, S_LEG);

static const field feet_fields[] = {
    INT(tdn_foot_placement_desc, leg_count),
    RECORDS(tdn_foot_placement_desc, legs, leg_schema, TDN_FOOT_MAX_LEGS),
    INT(tdn_foot_placement_desc, pelvis),
    FLOAT3(tdn_foot_placement_desc, up),
    FLOAT3(tdn_foot_placement_desc, forward),
    FLOAT(tdn_foot_placement_desc, half_life),
    FLOAT(tdn_foot_placement_desc, pelvis_half_life),
    FLOAT(tdn_foot_placement_desc, max_tilt),
    FLOAT(tdn_foot_placement_desc, lock_distance),
    FLOAT(tdn_foot_placement_desc, ray_above),
    FLOAT(tdn_foot_placement_desc, ray_below),
    FLOAT(tdn_foot_placement_desc, soften),
};
static const schema feet_schema = FIELDS(tdn_foot_placement_desc, feet_fields, S_FEET);

static const field ik_fields[] = {
    ENUM(tdn_graph_ik_desc, kind, TDN_GRAPH_IK_FOOT_PLACEMENT),
    STRING(tdn_graph_ik_desc, name),
    INT(tdn_graph_ik_desc, root),
    INT(tdn_graph_ik_desc, middle),
    INT(tdn_graph_ik_desc, end),
    STRING(tdn_graph_ik_desc, target),
    STRING(tdn_graph_ik_desc, pole),
    RECORD(tdn_graph_ik_desc, weight, value_schema),
    FLOAT(tdn_graph_ik_desc, soften),
    FLOAT(tdn_graph_ik_desc, tolerance),
    INT(tdn_graph_ik_desc, max_iterations),
    ARRAY_OF(tdn_graph_ik_desc, limits, limit_schema, BY_CHAIN, 0, TDN_MAX_IK_CHAIN),
    FLOAT(tdn_graph_ik_desc, max_step),
    FLOAT(tdn_graph_ik_desc, damping),
    FLOAT3(tdn_graph_ik_desc, axis),
    FLOAT3(tdn_graph_ik_desc, up_hint),
    ARRAY(tdn_graph_ik_desc, joint_weights, K_FLOAT, BY_CHAIN, 0, TDN_MAX_IK_CHAIN),
    ARRAY(tdn_graph_ik_desc, max_angles, K_FLOAT, BY_CHAIN, 0, TDN_MAX_IK_CHAIN),
    ARRAY_OF(tdn_graph_ik_desc, feet, feet_schema, ONE, 0, 1),
    ARRAY(tdn_graph_ik_desc, contact_curves, K_STRING, BY_LEGS, 0, TDN_FOOT_MAX_LEGS),
};
static const schema ik_schema = FIELDS(tdn_graph_ik_desc, ik_fields, S_IK);

static const field graph_fields[] = {
    INT(tdn_graph_desc, node_count), /* first: the reader sizes per-node tables by it */
    INT(tdn_graph_desc, clip_count),
    INT(tdn_graph_desc, param_count),
    ARRAY_OF(tdn_graph_desc, params, param_schema, BY_FIELD, offsetof(tdn_graph_desc, param_count),
             TDN_MAX_GRAPH_PARAMS),
    ARRAY_OF(tdn_graph_desc, nodes, node_schema, BY_FIELD, offsetof(tdn_graph_desc, node_count), TDN_MAX_GRAPH_NODES),
    INT(tdn_graph_desc, root),
    INT(tdn_graph_desc, layer_count),
    ARRAY_OF(tdn_graph_desc, layers, layer_schema, BY_FIELD, offsetof(tdn_graph_desc, layer_count), TDN_MAX_LAYERS),
    INT(tdn_graph_desc, sync_group_count),
    ARRAY_OF(tdn_graph_desc, sync_groups, group_schema, BY_FIELD, offsetof(tdn_graph_desc, sync_group_count),
             TDN_MAX_GRAPH_NODES),
    ARRAY(tdn_graph_desc, mirror_table, K_INT, BY_JOINTS, 0, TDN_MAX_JOINTS),
    FLOAT(tdn_graph_desc, cull_threshold),
    ARRAY_OF(tdn_graph_desc, root_motion, root_schema, ONE, 0, 1),
    INT(tdn_graph_desc, extract_root_motion),
    INT(tdn_graph_desc, ik_count),
    ARRAY_OF(tdn_graph_desc, ik, ik_schema, BY_FIELD, offsetof(tdn_graph_desc, ik_count), TDN_MAX_GRAPH_IK),
};
static const schema graph_schema = FIELDS(tdn_graph_desc, graph_fields, S_GRAPH);

static const schema *const SCHEMAS[SCHEMA_COUNT] = {
    &value_schema,   &ease_schema,  &param_schema, &condition_schema, &transition_schema, &state_schema,
    &machine_schema, &space_schema, &node_schema,  &group_schema,     &layer_schema,      &root_schema,
    &limit_schema,   &leg_schema,   &feet_schema,  &ik_schema,        &graph_schema
};

/* ---- what both directions share ---- */

static int field_words(const field *f);

static int record_words(const schema *s)
{
    int n = 0;
    for (int i = 0; i < s->field_count; i++)
        n += field_words(&s->fields[i]);
    return n;
}

static int field_words(const field *f)
{
    switch (f->kind) {
    case K_FLOAT3:
        return 3;
    case K_RECORD:
        return record_words(f->of);
    case K_RECORDS:
        return f->max * record_words(f->of);
    default:
        return 1;
    }
}

static const void *native_at(const void *record, const field *f) { return (const unsigned char *)record + f->at; }
static int native_int(const void *record, size_t at)
{
    int v;
    memcpy(&v, (const unsigned char *)record + at, sizeof v);
    return v;
}

/* An array field's length as what came before it says (the record is native and its earlier
 * fields filled), or -1 when the array must be absent (a chain that is no chain). */
static int array_length(const field *f, const void *record, const tdn_skeleton *skeleton)
{
    switch ((count_rule)f->rule) {
    case BY_FIELD:
        return native_int(record, f->count_at);
    case BY_JOINTS:
        return tdn_skeleton_joint_count(skeleton);
    case BY_CHAIN: {
        const tdn_graph_ik_desc *ik = record;
        if (ik->kind == TDN_GRAPH_IK_TWO_BONE || ik->kind == TDN_GRAPH_IK_FOOT_PLACEMENT)
            return -1; /* their joints have no per-joint settings */
        int chain[TDN_MAX_IK_CHAIN];
        const int n = tdn_ik_chain_path(skeleton, ik->root, ik->end, chain, TDN_MAX_IK_CHAIN);
        return n >= 2 ? n : -1;
    }
    case BY_DIMS: {
        const tdn_node_desc *node = record;
        return node->space ? tdn_blend_space_dimensions(node->space) : -1;
    }
    case BY_LEGS: {
        const tdn_graph_ik_desc *ik = record;
        return ik->feet ? ik->feet->leg_count : -1;
    }
    case BY_POINTS: {
        const tdn_blend_space_desc *d = record;
        const long long n = (long long)d->dimensions * d->sample_count;
        return d->dimensions >= 0 && d->sample_count >= 0 && n <= f->max ? (int)n : -1;
    }
    case ONE:
        return 1;
    }
    return -1;
}

/* ---- writing ---- */

typedef struct writer {
    tdn_allocator allocator;
    uint32_t *words;
    size_t count, capacity; /* words */
    const tdn_skeleton *skeleton;
    const char *const *callback_names;
    const tdn_node_desc *nodes;
    tdn_error *err;
    tdn_result failed;
} writer;

/* Room for n more words at the end; their index, or SIZE_MAX when out of memory. */
static size_t reserve(writer *w, size_t n)
{
    if (w->failed != TDN_OK)
        return SIZE_MAX;
    if (w->count + n > UINT32_MAX / 4) {
        w->failed = tdn__fail(w->err, TDN_ERR_ARGUMENT, "desc", "the definition would be 4 GiB or more");
        return SIZE_MAX;
    }
    if (w->count + n > w->capacity) {
        size_t cap = w->capacity ? w->capacity : 256;
        while (cap < w->count + n)
            cap *= 2;
        uint32_t *bigger = tdn__alloc(&w->allocator, cap * 4, 16);
        if (!bigger) {
            w->failed = tdn__fail(w->err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes failed", cap * 4);
            return SIZE_MAX;
        }
        if (w->count > 0)
            memcpy(bigger, w->words, w->count * 4);
        memset(bigger + w->count, 0, (cap - w->count) * 4);
        tdn__free(&w->allocator, w->words, w->capacity * 4);
        w->words = bigger;
        w->capacity = cap;
    }
    const size_t at = w->count;
    w->count += n;
    return at;
}

static void put(writer *w, size_t at, uint32_t v)
{
    if (at != SIZE_MAX && w->failed == TDN_OK)
        w->words[at] = v;
}

static uint32_t bits_of(float x)
{
    uint32_t v;
    memcpy(&v, &x, 4);
    return v;
}

static void write_record(writer *w, size_t at, const schema *s, const void *record);

/* A string's block; its offset (0 for NULL). */
static uint32_t write_string(writer *w, const char *s)
{
    if (!s)
        return 0;
    const size_t n = strlen(s);
    const size_t at = reserve(w, 1 + (n + 1 + 3) / 4);
    if (at == SIZE_MAX)
        return 0;
    w->words[at] = (uint32_t)n;
    memcpy(w->words + at + 1, s, n); /* the zero and the padding: reserve zeroed them */
    return (uint32_t)(at * 4);
}

static uint32_t write_array(writer *w, const field *f, const void *record)
{
    const void *array;
    memcpy(&array, native_at(record, f), sizeof array);
    if (!array)
        return 0;
    const int n = array_length(f, record, w->skeleton);
    if (n < 0) /* an array the graph does not read (limits of a two-bone job): left out */
        return 0;
    if (n > f->max) {
        w->failed = tdn__fail(w->err, TDN_ERR_ARGUMENT, "desc", "%s: %d elements where a definition holds at most %d",
                              f->name, n, f->max);
        return 0;
    }
    const int per = f->elem == K_RECORD ? record_words(f->of) : 1;
    const size_t at = reserve(w, 1 + (size_t)n * (size_t)per);
    if (at == SIZE_MAX)
        return 0;
    w->words[at] = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        const size_t slot = at + 1 + (size_t)i * (size_t)per;
        if (f->elem == K_RECORD)
            write_record(w, slot, f->of, (const unsigned char *)array + (size_t)i * f->of->size);
        else if (f->elem == K_STRING)
            put(w, slot, write_string(w, ((const char *const *)array)[i]));
        else { /* int and float words are their bits */
            uint32_t v;
            memcpy(&v, (const unsigned char *)array + 4 * (size_t)i, 4);
            put(w, slot, v);
        }
    }
    return (uint32_t)(at * 4);
}

static uint32_t write_space(writer *w, const tdn_blend_space *space)
{
    if (!space)
        return 0;
    const int dims = tdn_blend_space_dimensions(space), samples = tdn_blend_space_sample_count(space);
    float points[TDN_MAX_BLEND_SPACE_SAMPLES * TDN_MAX_BLEND_SPACE_DIMENSIONS];
    for (int k = 0; k < samples; k++)
        memcpy(points + k * dims, tdn_blend_space_point(space, k), sizeof(float) * (size_t)dims);
    const tdn_blend_space_desc d = { tdn_blend_space_mode_of(space), dims, samples, points };
    const size_t at = reserve(w, 1 + (size_t)record_words(&space_schema));
    if (at == SIZE_MAX)
        return 0;
    w->words[at] = 1;
    write_record(w, at + 1, &space_schema, &d);
    return (uint32_t)(at * 4);
}

/* Writes record `record` of schema s into the words from `at` (reserved), its arrays after the end. */
static void write_record(writer *w, size_t at, const schema *s, const void *record)
{
    for (int i = 0; i < s->field_count && w->failed == TDN_OK; i++) {
        const field *f = &s->fields[i];
        const void *p = native_at(record, f);
        switch ((kind)f->kind) {
        case K_INT:
        case K_ENUM:
        case K_FLOAT: {
            uint32_t v;
            memcpy(&v, p, 4);
            put(w, at, v);
            break;
        }
        case K_FLOAT3:
            for (int k = 0; k < 3; k++)
                put(w, at + (size_t)k, bits_of(((const float *)p)[k]));
            break;
        case K_STRING:
            put(w, at, write_string(w, *(const char *const *)p));
            break;
        case K_RECORD:
            write_record(w, at, f->of, p);
            break;
        case K_RECORDS:
            for (int k = 0; k < f->max; k++)
                write_record(w, at + (size_t)(k * record_words(f->of)), f->of,
                             (const unsigned char *)p + (size_t)k * f->of->size);
            break;
        case K_ARRAY:
            put(w, at, write_array(w, f, record));
            break;
        case K_CALLBACK: {
            const tdn_node_desc *node = record;
            const int calls = node->callback &&
                              (node->type == TDN_NODE_PROCEDURAL ||
                               (node->type == TDN_NODE_MODIFIER && node->modifier == TDN_MODIFIER_CALLBACK));
            const char *name = calls && w->callback_names ? w->callback_names[node - w->nodes] : NULL;
            if (calls && !name)
                w->failed = tdn__fail(w->err, TDN_ERR_ARGUMENT, "callback_names",
                                      "node %d has a callback and no name to bind it by when loaded",
                                      (int)(node - w->nodes));
            put(w, at, write_string(w, name));
            break;
        }
        case K_SPACE:
            put(w, at, write_space(w, *(const tdn_blend_space *const *)p));
            break;
        }
        at += (size_t)field_words(f);
    }
}

tdn_result tdn_graph_definition_save_memory(const tdn_graph_desc *desc, const char *const *callback_names, void **data,
                                            size_t *size, const tdn_allocator *allocator, tdn_error *err)
{
    if (data)
        *data = NULL;
    if (size)
        *size = 0;
    if (!desc || !data || !size)
        return tdn__null(err, !desc ? "desc" : !data ? "data" : "size");
    if (!desc->skeleton)
        return tdn__null(err, "desc.skeleton");
    if (tdn__check_allocator(allocator, err) != TDN_OK)
        return TDN_ERR_ARGUMENT;
    if (desc->node_count > 0 && !desc->nodes)
        return tdn__null(err, "desc.nodes");
    for (int i = 0; i < desc->node_count; i++)
        if (desc->nodes[i].type == TDN_NODE_MOTION_MATCH || desc->nodes[i].motion_match)
            return tdn__fail(err, TDN_ERR_ARGUMENT, "desc.nodes",
                             "node %d plays motion matching, whose database and clips a definition does not hold", i);
    writer w = { .allocator = tdn__allocator_of(allocator),
                 .skeleton = desc->skeleton,
                 .callback_names = callback_names,
                 .nodes = desc->nodes,
                 .err = err };
    const size_t at = reserve(&w, HEADER_WORDS + (size_t)record_words(&graph_schema));
    put(&w, 0, IMAGE_MAGIC);
    put(&w, 1, TDN_GRAPH_DEFINITION_VERSION);
    if (at != SIZE_MAX)
        write_record(&w, HEADER_WORDS, &graph_schema, desc);
    if (w.failed != TDN_OK) {
        tdn__free(&w.allocator, w.words, w.capacity * 4);
        return w.failed;
    }
    /* exactly the words written, so that the image's size is what it holds */
    uint32_t *out = tdn__alloc(&w.allocator, w.count * 4, 16);
    if (!out) {
        tdn__free(&w.allocator, w.words, w.capacity * 4);
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes failed", w.count * 4);
    }
    for (size_t i = 0; i < w.count; i++) /* little-endian words */
        tdn__pack_put_u32((unsigned char *)(out + i), w.words[i]);
    tdn__free(&w.allocator, w.words, w.capacity * 4);
    *data = out;
    *size = w.count * 4;
    return TDN_OK;
}

/* ---- reading ---- */

/* The most words a record has (the largest, a node's, has 31). */
#define MAX_RECORD_WORDS 64

/* Where a record's fields lie among its words, so that reading a record visits only the fields
 * with a word that is not zero: most are zero, and a zeroed record already holds them. */
typedef struct layout {
    int words;
    unsigned char first[MAX_RECORD_WORDS]; /* per field: its first word */
    unsigned char count[MAX_RECORD_WORDS]; /* per field: its words */
    unsigned char field[MAX_RECORD_WORDS]; /* per word: its field */
} layout;

static void lay_out(const schema *s, layout *out)
{
    int w = 0;
    for (int i = 0; i < s->field_count; i++) {
        const int n = field_words(&s->fields[i]);
        out->first[i] = (unsigned char)w;
        out->count[i] = (unsigned char)n;
        for (int k = 0; k < n; k++)
            out->field[w + k] = (unsigned char)i;
        w += n;
    }
    out->words = w;
}

static int lowest_bit(uint64_t x)
{
#if defined(__GNUC__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    for (; !(x & 1u); x >>= 1)
        n++;
    return n;
#endif
}

typedef struct reader {
    layout layouts[SCHEMA_COUNT];
    const unsigned char *image;
    size_t size, image_byte;
    const tdn_skeleton *skeleton;
    unsigned char *memory; /* records, bump-allocated */
    size_t used, capacity;
    tdn__graph_definition *out;
    uint32_t *claimed; /* a bit per word of the image: a block may use a word once (no shared blocks) */
    int node;          /* the node being read, for callback names */
    tdn_error *err;
} reader;

static uint32_t word_at(const reader *r, size_t byte) { return tdn__pack_u32(r->image + byte); }

static tdn_result fail_at(const reader *r, size_t byte, const char *s, const field *f, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static tdn_result fail_at(const reader *r, size_t byte, const char *s, const field *f, const char *fmt, ...)
{
    char message[192], where[48];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    snprintf(where, sizeof where, "byte %zu", r->image_byte + byte);
    return tdn__fail(r->err, TDN_ERR_INVALID_DATA, where, "graph definition: %s.%s: %s", s, f ? f->name : "", message);
}

/* The block an offset word at `byte` points to: `words` words after a count word inside the
 * image, or 0 for NULL; sets *count. Checked before anything is multiplied. */
static tdn_result block(const reader *r, size_t byte, const char *s, const field *f, size_t *offset, uint32_t *count)
{
    *offset = word_at(r, byte);
    *count = 0;
    if (*offset == 0)
        return TDN_OK;
    if (*offset % 4 != 0 || *offset < 4 * HEADER_WORDS || *offset > r->size - 4)
        return fail_at(r, byte, s, f, "offset %zu is not a word of the %zu-byte image after its header", *offset,
                       r->size);
    *count = word_at(r, *offset);
    return TDN_OK;
}

/* Claims the words of a block of `bytes` at `offset` (checked to lie in the image): a word that
 * another block, or the header, uses already is an error, so that reading is linear in the
 * image's size however its offsets point. */
static tdn_result claim(const reader *r, size_t offset, size_t bytes, const char *s, const field *f)
{
    const size_t first = offset / 4, end = (offset + bytes + 3) / 4; /* words [first, end) */
    for (size_t w = first; w < end; w = (w / 32 + 1) * 32) {
        const size_t k = w / 32, lo = w % 32, hi = end < 32 * (k + 1) ? end - 32 * k : 32; /* bits [lo, hi) of k */
        const uint32_t bits = (uint32_t)(((UINT64_C(1) << (hi - lo)) - 1) << lo);
        if (r->claimed[k] & bits)
            return fail_at(r, offset, s, f, "the block at %zu overlaps another block (blocks are not shared)", offset);
        r->claimed[k] |= bits;
    }
    return TDN_OK;
}

static void *take(reader *r, size_t bytes, size_t align)
{
    const size_t at = (r->used + align - 1) / align * align;
    if (at > r->capacity || bytes > r->capacity - at)
        return NULL;
    r->used = at + bytes;
    return r->memory + at;
}

static tdn_result read_record(reader *r, size_t byte, const schema *s, void *record);

static tdn_result read_string(const reader *r, size_t byte, const char *s, const field *f, const char **out)
{
    size_t offset;
    uint32_t n;
    tdn_result res = block(r, byte, s, f, &offset, &n);
    *out = NULL;
    if (res != TDN_OK || offset == 0)
        return res;
    const size_t room = r->size - offset - 4;
    if (n >= room || n > MAX_STRING)
        return fail_at(r, byte, s, f, "a string of %u bytes does not fit the %zu left or is longer than %d", n, room,
                       MAX_STRING);
    res = claim(r, offset, 4 + (size_t)n + 1, s, f);
    if (res != TDN_OK)
        return res;
    const char *text = (const char *)r->image + offset + 4;
    const char *zero = memchr(text, '\0', (size_t)n + 1);
    if (zero != text + n)
        return fail_at(r, offset, s, f, "the string's %u bytes are not followed by its zero byte", n);
    *out = text;
    return TDN_OK;
}

/* The elements of the array block whose offset word is at `byte`: none (*first = 0) for 0,
 * else exactly `need` (what came before says; -1: none can be) of `per` words each, at *first,
 * inside the image. */
static tdn_result elements(const reader *r, size_t byte, const char *s, const field *f, int need, size_t per,
                           size_t *first)
{
    size_t offset;
    uint32_t n;
    *first = 0;
    tdn_result res = block(r, byte, s, f, &offset, &n);
    if (res != TDN_OK || offset == 0)
        return res;
    if (need < 0)
        return fail_at(r, byte, s, f, "an array where none can be (what comes before it gives it no length)");
    if (n != (uint32_t)need || need > f->max)
        return fail_at(r, offset, s, f, "%u elements where %d are needed (at most %d)", n, need, f->max);
    if ((size_t)n * per > (r->size - offset - 4) / 4)
        return fail_at(r, offset, s, f, "%u elements do not fit the %zu bytes left", n, r->size - offset - 4);
    res = claim(r, offset, 4 + 4 * (size_t)n * per, s, f);
    *first = res == TDN_OK ? offset + 4 : 0;
    return res;
}

static tdn_result read_array(reader *r, size_t byte, const char *s, const field *f, void *record)
{
    const size_t per = f->elem == K_RECORD ? (size_t)r->layouts[f->of->id].words : 1;
    const int need = word_at(r, byte) != 0 ? array_length(f, record, r->skeleton) : 0;
    size_t first;
    tdn_result res = elements(r, byte, s, f, need, per, &first);
    void *array = NULL;
    if (res == TDN_OK && first != 0) {
        const uint32_t n = (uint32_t)need;
        if (f->elem == K_INT) {
            array = (void *)(r->image + first); /* used where it lies */
        } else if (f->elem == K_FLOAT) {
            const long bad = tdn__pack_first_nonfinite((const float *)(r->image + first), n);
            if (bad >= 0)
                return fail_at(r, first + 4 * (size_t)bad, s, f, "element %ld is not finite", bad);
            array = (void *)(r->image + first);
        } else if (f->elem == K_STRING) {
            const char **strings = take(r, sizeof(char *) * n, _Alignof(char *));
            if (!strings)
                return fail_at(r, first, s, f, "more than the image's bound of memory");
            for (uint32_t i = 0; res == TDN_OK && i < n; i++)
                res = read_string(r, first + 4 * (size_t)i, s, f, &strings[i]);
            array = strings;
        } else {
            unsigned char *records = take(r, f->of->size * n, f->of->align);
            if (!records)
                return fail_at(r, first, s, f, "more than the image's bound of memory");
            memset(records, 0, f->of->size * n);
            for (uint32_t i = 0; res == TDN_OK && i < n; i++) {
                if (f->of == &node_schema)
                    r->node = (int)i;
                res = read_record(r, first + 4 * per * i, f->of, records + f->of->size * i);
            }
            array = records;
        }
    }
    memcpy((unsigned char *)record + f->at, &array, sizeof array);
    return res;
}

static tdn_result read_space(reader *r, size_t byte, const char *s, const field *f, void *record)
{
    size_t first;
    tdn_result res = elements(r, byte, s, f, 1, (size_t)r->layouts[S_SPACE].words, &first);
    tdn_blend_space *space = NULL;
    if (res == TDN_OK && first != 0) {
        tdn_blend_space_desc d = { 0 };
        res = read_record(r, first, &space_schema, &d);
        if (res != TDN_OK)
            return res;
        if (!d.points)
            return fail_at(r, first, s, f, "the blend space has no points");
        const tdn_result made = tdn_blend_space_create(&d, &space, &r->out->allocator, r->err);
        if (made == TDN_ERR_OUT_OF_MEMORY)
            return made;
        if (made != TDN_OK)
            return fail_at(r, first, s, f, "%s", r->err ? r->err->message : "not a blend space");
        r->out->spaces[r->out->space_count++] = space;
    }
    memcpy((unsigned char *)record + f->at, &space, sizeof space);
    return res;
}

/* Reads field f of record `record` (zeroed), whose words at `byte` are not all zero. */
static tdn_result read_field(reader *r, size_t byte, const schema *s, const field *f, void *record)
{
    unsigned char *p = (unsigned char *)record + f->at;
    const uint32_t v = word_at(r, byte);
    switch ((kind)f->kind) {
    case K_INT:
        memcpy(p, &v, 4);
        return TDN_OK;
    case K_ENUM:
        if (v > (uint32_t)f->max)
            return fail_at(r, byte, s->name, f, "%u is not one of 0..%d", v, f->max);
        memcpy(p, &v, 4);
        return TDN_OK;
    case K_FLOAT:
    case K_FLOAT3:
        for (int k = 0; k < (f->kind == K_FLOAT ? 1 : 3); k++) {
            const uint32_t w = word_at(r, byte + 4 * (size_t)k);
            float x;
            memcpy(&x, &w, 4);
            if (!tdn__finite(x))
                return fail_at(r, byte + 4 * (size_t)k, s->name, f, "%g is not finite", (double)x);
            memcpy(p + 4 * k, &x, 4);
        }
        return TDN_OK;
    case K_STRING:
        return read_string(r, byte, s->name, f, (const char **)(void *)p);
    case K_RECORD:
        return read_record(r, byte, f->of, p);
    case K_RECORDS: {
        tdn_result res = TDN_OK;
        for (int k = 0; res == TDN_OK && k < f->max; k++)
            res = read_record(r, byte + 4 * (size_t)(k * r->layouts[f->of->id].words), f->of,
                              p + (size_t)k * f->of->size);
        return res;
    }
    case K_ARRAY:
        return read_array(r, byte, s->name, f, record);
    case K_CALLBACK:
        return read_string(r, byte, s->name, f, &r->out->callback_names[r->node]);
    case K_SPACE:
        return read_space(r, byte, s->name, f, record);
    }
    return TDN_OK;
}

/* Reads the record at `byte` (its words checked to lie in the image) into `record` (zeroed):
 * the fields with a word that is not zero, in order (a count before the array it sizes). */
static tdn_result read_record(reader *r, size_t byte, const schema *s, void *record)
{
    const layout *l = &r->layouts[s->id];
    uint64_t present = 0;
    for (int w = 0; w < l->words; w++)
        present |= (uint64_t)(word_at(r, byte + 4 * (size_t)w) != 0) << w;
    tdn_result res = TDN_OK;
    while (present && res == TDN_OK) {
        const int i = l->field[lowest_bit(present)];
        present &= ~(((UINT64_C(1) << l->count[i]) - 1) << l->first[i]);
        res = read_field(r, byte + 4 * (size_t)l->first[i], s, &s->fields[i], record);
    }
    return res;
}

/* Memory every record of an image of `size` bytes can need: a record is at most `ratio` times
 * its words in memory, an array's block has a count word, and each array may be padded. */
static size_t memory_bound(size_t size)
{
    size_t ratio = sizeof(char *) / 4 + 1; /* a string array's pointers */
    for (int i = 0; i < SCHEMA_COUNT; i++) {
        const size_t words = (size_t)record_words(SCHEMAS[i]);
        const size_t r = (SCHEMAS[i]->size + 4 * words - 1) / (4 * words);
        ratio = r > ratio ? r : ratio;
    }
    return ratio * size + (size / 4) * 16 + 64;
}

void tdn__graph_definition_free(tdn__graph_definition *d)
{
    if (!d)
        return;
    for (int k = 0; k < d->space_count; k++)
        tdn_blend_space_destroy(d->spaces[k]);
    tdn__free(&d->allocator, d->memory, d->memory_bytes);
    memset(d, 0, sizeof *d);
}

tdn_result tdn__graph_definition_header(const void *image, size_t size, size_t image_byte, uint32_t *clip_count,
                                        tdn_error *err)
{
    const reader r = { .image = image, .size = size, .image_byte = image_byte, .err = err };
    const size_t header = 4 * (HEADER_WORDS + (size_t)record_words(&graph_schema));
    *clip_count = 0;
    if (size % 4 != 0 || size < header)
        return fail_at(&r, 0, "graph", NULL, "%zu bytes are not whole words holding the %zu-byte header", size, header);
    if (word_at(&r, 0) != IMAGE_MAGIC)
        return fail_at(&r, 0, "graph", NULL, "not a graph definition (its first word is not 'GDEF')");
    if (word_at(&r, 4) != TDN_GRAPH_DEFINITION_VERSION)
        return fail_at(&r, 4, "graph", NULL, "version %u, where this build reads %d", word_at(&r, 4),
                       TDN_GRAPH_DEFINITION_VERSION);
    *clip_count = word_at(&r, 4 * HEADER_WORDS + 4); /* the second field */
    return TDN_OK;
}

tdn_result tdn__graph_definition_read(const void *image, size_t size, size_t image_byte, const tdn_skeleton *skeleton,
                                      tdn__graph_definition *out, const tdn_allocator *allocator, tdn_error *err)
{
    memset(out, 0, sizeof *out);
    out->allocator = tdn__allocator_of(allocator);
    reader r = { .image = image, .size = size, .image_byte = image_byte, .skeleton = skeleton, .out = out, .err = err };
    for (int i = 0; i < SCHEMA_COUNT; i++)
        lay_out(SCHEMAS[i], &r.layouts[i]);
    uint32_t clips;
    tdn_result res = tdn__graph_definition_header(image, size, image_byte, &clips, err);
    if (res != TDN_OK)
        return res;
    /* the node count first: callback names and spaces are per node */
    const uint32_t nodes = word_at(&r, 4 * HEADER_WORDS);
    if (nodes > TDN_MAX_GRAPH_NODES)
        return fail_at(&r, 4 * HEADER_WORDS, "graph", NULL, "node_count %u is above %d", nodes, TDN_MAX_GRAPH_NODES);
    if (size > SIZE_MAX / 32)
        return fail_at(&r, 0, "graph", NULL, "%zu bytes are more than this build can read", size);
    const size_t claimed_words = (size / 4 + 31) / 32;
    out->memory_bytes = memory_bound(size) + (sizeof(char *) + sizeof(tdn_blend_space *)) * (nodes + 1) +
                        sizeof(uint32_t) * claimed_words;
    out->memory = tdn__alloc(&out->allocator, out->memory_bytes, 16);
    if (!out->memory)
        return tdn__fail(err, TDN_ERR_OUT_OF_MEMORY, "allocator", "allocating %zu bytes failed", out->memory_bytes);
    r.memory = out->memory;
    r.capacity = out->memory_bytes;
    out->callback_names = take(&r, sizeof(char *) * (nodes + 1), _Alignof(char *));
    out->spaces = take(&r, sizeof(tdn_blend_space *) * (nodes + 1), _Alignof(tdn_blend_space *));
    memset(out->callback_names, 0, sizeof(char *) * (nodes + 1));
    r.claimed = take(&r, sizeof(uint32_t) * claimed_words, _Alignof(uint32_t));
    memset(r.claimed, 0, sizeof(uint32_t) * claimed_words);
    res = claim(&r, 0, 4 * (HEADER_WORDS + (size_t)r.layouts[S_GRAPH].words), "graph", NULL);
    if (res == TDN_OK)
        res = read_record(&r, 4 * HEADER_WORDS, &graph_schema, &out->desc);
    if (res != TDN_OK) {
        tdn__graph_definition_free(out);
        return res;
    }
    out->desc.skeleton = skeleton;
    return TDN_OK;
}
