/*
** version.c — the library's version, as compiled into it (the header's
** JJ_VERSION_STRING and JJ_VERSION_NUMBER), for programs that link the
** shared library and want to know which one they got.
*/
#include "jalapenojson.h"

const char *jj_version(void) { return JJ_VERSION_STRING; }

int jj_version_number(void) { return JJ_VERSION_NUMBER; }
