#ifndef PICTURE_CODECS_H
#define PICTURE_CODECS_H

#include <stddef.h>
#include <stdint.h>

/// Pixels decoded from a PNG, JPEG, GIF (its first frame) or WebP file: rows top first, three bytes (red, green, blue) a
/// pixel, transparent parts laid on black. Freed with `picture_codecs_free`.
typedef struct {
    uint8_t *rgb;
    uint32_t width;
    uint32_t height;
} picture_codecs_pixels;

/// How a decoding ended.
typedef enum {
    PICTURE_CODECS_OK = 0,
    /// Not a PNG, JPEG, GIF or WebP file (one this build decodes), by its first bytes (the name and type it came with
    /// are never trusted).
    PICTURE_CODECS_UNKNOWN_FORMAT = 1,
    /// Wider or taller than `max_side`, or more pixels than `max_pixels` once decoded: refused
    /// before the pixels are allocated.
    PICTURE_CODECS_TOO_LARGE = 2,
    /// Cut short or damaged.
    PICTURE_CODECS_DAMAGED = 3,
} picture_codecs_result;

/// Decodes the `count` bytes at `bytes`, a PNG, JPEG, GIF or WebP file, into `out` (a GIF's or
/// an animated WebP's first frame; GIF and WebP where `picture_codecs_draws_gif_and_webp`). A JPEG is decoded at
/// the smallest of its sizes 1/1, 1/2, 1/4 and 1/8 that is still at least `fit_width` ×
/// `fit_height`, which saves the memory of a photo's full size when a few hundred pixels are shown.
/// Never writes to standard error, never ends the process, whatever the bytes.
picture_codecs_result picture_codecs_decode(
    const uint8_t *bytes, size_t count, uint32_t fit_width, uint32_t fit_height, uint32_t max_side, uint64_t max_pixels,
    picture_codecs_pixels *out);

/// Whether this build decodes GIF and WebP files (it was built with giflib's and libwebp's
/// headers); PNG and JPEG are always decoded.
int picture_codecs_draws_gif_and_webp(void);

/// Frees what `picture_codecs_decode` allocated in `pixels`.
void picture_codecs_free(picture_codecs_pixels *pixels);

#endif
