// The fstapi library (GTKWave's FST writer and reader) from Verilator's include tree,
// compiled here for the model's waveforms with the configuration Verilator's own
// verilated_fst_c.cpp gives it for the Verilated routers. A binary that links both gets
// these symbols from whichever it pulls first: they are the same source.
#define __STDC_LIMIT_MACROS
#define HAVE_LIBPTHREAD
#define FST_WRITER_PARALLEL
#define FST_CONFIG_INCLUDE "fst_config.h"
#include "gtkwave/fastlz.c"
#include "gtkwave/fstapi.c"
#include "gtkwave/lz4.c"
