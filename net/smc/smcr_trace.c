// SPDX-License-Identifier: GPL-2.0
/* smcr: instantiate the tracepoints of smcr_trace.h */

#define CREATE_TRACE_POINTS
#include "smcr_trace.h"
