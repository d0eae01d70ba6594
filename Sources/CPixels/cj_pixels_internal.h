// Private to CPixels' .c files: libvips' and the shim's declarations (the kernels read and
// make VipsImages), CPixels' own, and the visibility mark for what one file calls in another.
#ifndef CJ_PIXELS_INTERNAL_H
#define CJ_PIXELS_INTERNAL_H

#include <vips/vips.h>

#include "cpixels.h"
#include "cvips_shim.h"

// Shared between CPixels' object files, kept out of the library's exported symbols.
#define CJ_PRIVATE __attribute__((visibility("hidden")))

#endif
