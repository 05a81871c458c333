/* tendon: version macro and query. */
#ifndef TENDON_VERSION_H
#define TENDON_VERSION_H

#include "base.h"

#define TDN_VERSION_MAJOR 0
#define TDN_VERSION_MINOR 2
#define TDN_VERSION_PATCH 0
#define TDN_VERSION_STRING "0.2.0"
/* One integer that orders versions: major * 10000 + minor * 100 + patch. */
#define TDN_VERSION (TDN_VERSION_MAJOR * 10000 + TDN_VERSION_MINOR * 100 + TDN_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* The version the library was built as (TDN_VERSION of its build); compare with the macro
 * to detect a header/library mismatch. */
TDN_API int tdn_version(void);
TDN_API const char *tdn_version_string(void);

#ifdef __cplusplus
}
#endif
#endif
