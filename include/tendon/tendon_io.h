/* tendon: the io library (libtendon_io) and the whole core API. Include this for files, JSON
 * documents and the generated humanoid; link tendon::tendon_io. */
#ifndef TENDON_TENDON_IO_H
#define TENDON_TENDON_IO_H

#include "tendon.h"
#include "io/asset.h"
#include "io/blend_space_file.h"
#include "io/body_map_file.h"
#include "io/file_access.h"
#include "io/gltf_save.h"
#include "io/graph_document.h"
#include "io/humanoid.h"
#include "io/mm_database_file.h"
#include "io/pack_file.h"

#endif
