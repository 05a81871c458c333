/* tendon: state machines, a kind of graph node (TDN_NODE_STATE_MACHINE).
 *
 * A state machine's states are its node's inputs: each state's pose comes from any node (a
 * clip, a blend space, a tree, another state machine). Every update, while no transition is in
 * progress (or the one in progress may be interrupted), the transitions leaving the current state
 * and the any-state transitions are checked in priority order (lower first, then in the order
 * given); the first whose conditions all hold is taken. Taking a transition consumes the
 * triggers among its conditions, so a trigger fires exactly one transition.
 *
 * Blending: the machine keeps a short stack of states fading in. Entering a state pushes it with
 * weight curve(elapsed / duration); the states below share the rest in their current
 * proportions, so an interruption starts from the current blended pose, never a snapped one.
 * When the top state's fade completes, the states below are dropped. Modes:
 *   SMOOTH       cross-fade; every state in the stack keeps playing
 *   FROZEN       cross-fade; the states being left hold their pose (their clips stop)
 *   CUT          the destination takes over at once
 *   INERTIALIZE  the destination takes over at once, and the layer the machine is in carries
 *                the difference from what was shown, decaying to zero over the duration
 *                (tdn_inertializer: only the destination is evaluated)
 * Entering a state restarts its clips (at their start offsets), or with `sync_phase` at the
 * normalized phase of the state being left. A state's normalized time (for exit times) is
 * that of its heaviest clip, in laps since the state was entered (1.5: halfway through its
 * second lap). Weights, times and events follow the blend-tree rules of graph.h: all of this is
 * flattened into the graph's flat list. */
#ifndef TENDON_STATE_MACHINE_H
#define TENDON_STATE_MACHINE_H

#include "base.h"
#include "ease.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TDN_MAX_STATES 64
#define TDN_MAX_TRANSITION_CONDITIONS 8
#define TDN_MAX_FADE_STACK 8

typedef enum tdn_compare {
    TDN_COMPARE_GREATER = 0, /* param > value */
    TDN_COMPARE_LESS,
    TDN_COMPARE_GREATER_EQUAL,
    TDN_COMPARE_LESS_EQUAL,
    TDN_COMPARE_EQUAL,
    TDN_COMPARE_NOT_EQUAL,
    TDN_COMPARE_TRUE, /* a bool set, a trigger fired (value unused) */
    TDN_COMPARE_FALSE
} tdn_compare;

typedef struct tdn_condition_desc {
    const char *param;
    tdn_compare compare;
    float value;
} tdn_condition_desc;

typedef enum tdn_transition_mode {
    TDN_TRANSITION_SMOOTH = 0,
    TDN_TRANSITION_FROZEN,
    TDN_TRANSITION_CUT,
    TDN_TRANSITION_INERTIALIZE
} tdn_transition_mode;

typedef struct tdn_transition_desc {
    int from; /* a state index, or TDN_ANY_STATE */
    int to;
    const tdn_condition_desc *conditions; /* all must hold; none: taken at the exit time (or at once) */
    int condition_count;
    /* When > 0: the transition waits until the state's normalized time reaches it. */
    float exit_time;
    float duration; /* seconds, or a fraction of the state left when duration_normalized */
    int duration_normalized;
    tdn_ease curve; /* the weight over the fade; zero: linear */
    tdn_transition_mode mode;
    int priority;        /* lower is checked first */
    int uninterruptible; /* 1: no transition is checked until this one completes */
    int sync_phase;      /* 1: the destination starts at the left state's normalized phase */
} tdn_transition_desc;

#define TDN_ANY_STATE (-1)

typedef struct tdn_state_desc {
    const char *name; /* required, unique in its machine */
} tdn_state_desc;

/* The states are the node's inputs, in order; states[i] names input i. */
typedef struct tdn_state_machine_desc {
    const tdn_state_desc *states;
    int state_count;
    const tdn_transition_desc *transitions;
    int transition_count;
    int initial; /* the state it starts in */
} tdn_state_machine_desc;

/* What a machine is doing (tdn_graph_state_machine_status). */
typedef struct tdn_state_machine_status {
    int state;               /* the current state: the destination of a fade in progress */
    float time_in_state;     /* seconds since it was entered */
    float normalized_time;   /* its laps since entered (see the top of this file) */
    int transition;          /* the transition fading in, or -1 */
    float transition_weight; /* the current state's weight in the machine, 1 when settled */
    int previous_state;      /* the state it came from last, or -1 */
} tdn_state_machine_status;

#ifdef __cplusplus
}
#endif
#endif
