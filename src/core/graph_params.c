/* tendon core: smoothing parameters with a critically damped spring; parameter type names. */
#include "graph_internal.h"
#include "internal.h"
#include "spring.h"

void tdn__graph_params_advance(tdn_graph_instance *instance, float dt)
{
    const tdn_graph *g = instance->graph;
    for (int p = 0; p < g->param_count; p++) {
        const tdn__param *param = &g->params[p];
        tdn__param_state *s = &instance->params[p];
        if (param->half_life <= 0.0f)
            continue;
        float y = TDN__HALF_LIFE_U / param->half_life;
        for (int c = 0; c < param->components; c++)
            tdn__spring_step(&s->value[c], &s->velocity[c], s->target[c], y, dt);
    }
}

const char *tdn_param_type_name(tdn_param_type type)
{
    static const char *const names[] = { "float", "int", "bool", "trigger", "vec2", "vec3" };
    return (int)type >= 0 && (int)type < (int)(sizeof names / sizeof names[0]) ? names[type] : NULL;
}
