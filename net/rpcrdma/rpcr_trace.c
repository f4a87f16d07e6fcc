// SPDX-License-Identifier: GPL-2.0
/* rpcr: instantiate the tracepoints of rpcr_trace.h */

#define CREATE_TRACE_POINTS
#include "rpcr_trace.h"
