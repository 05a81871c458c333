/* tendon: real-time character animation in C11. Include this for the whole core API. */
#ifndef TENDON_TENDON_H
#define TENDON_TENDON_H

#include "base.h"
#include "version.h"
#include "vecmath.h"
#include "skeleton.h"
#include "pose.h"
#include "keyed_clip.h"
#include "clip.h"
#include "player.h"
#include "ease.h"
#include "blend.h"
#include "blend_space.h"
#include "model_space.h"
#include "ik_two_bone.h"
#include "ik_chain.h"
#include "ik_fabrik.h"
#include "ik_ccd.h"
#include "ik_blend.h"
#include "ik_dls.h"
#include "ik_look_at.h"
#include "foot_placement.h"
#include "skin.h"
#include "mirror.h"
#include "graph.h"
#include "inertialize.h"
#include "root_motion.h"
#include "mm_database.h"
#include "nearest_name.h"
#include "mm_controller.h"

#endif
