// Decoding of the pictures the full-screen UI draws, over libpng's simplified API and libjpeg.
// libjpeg reports errors by calling a function that must not return, so the decoder jumps back
// with longjmp: that is why this is C and not Swift.
#include "PictureCodecs.h"

// jpeglib.h needs stdio.h's FILE before it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>
#include <setjmp.h>

static int fits(uint32_t width, uint32_t height, uint32_t max_side, uint64_t max_pixels) {
    return width > 0 && height > 0 && width <= max_side && height <= max_side && (uint64_t)width * height <= max_pixels;
}

static picture_codecs_result decode_png(
    const uint8_t *bytes, size_t count, uint32_t max_side, uint64_t max_pixels, picture_codecs_pixels *out) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, bytes, count)) return PICTURE_CODECS_DAMAGED;
    if (!fits(image.width, image.height, max_side, max_pixels)) {
        png_image_free(&image);
        return PICTURE_CODECS_TOO_LARGE;
    }
    image.format = PNG_FORMAT_RGB;
    // Zeroed: what is transparent is laid on the buffer's black.
    uint8_t *rgb = calloc(PNG_IMAGE_SIZE(image), 1);
    if (rgb == NULL) {
        png_image_free(&image);
        return PICTURE_CODECS_TOO_LARGE;
    }
    if (!png_image_finish_read(&image, NULL, rgb, 0, NULL)) {
        free(rgb);
        png_image_free(&image);
        return PICTURE_CODECS_DAMAGED;
    }
    out->rgb = rgb;
    out->width = image.width;
    out->height = image.height;
    return PICTURE_CODECS_OK;
}

struct jpeg_failure {
    struct jpeg_error_mgr manager;
    jmp_buf back;
};

static void jpeg_failed(j_common_ptr decoder) { longjmp(((struct jpeg_failure *)decoder->err)->back, 1); }

static void jpeg_quiet(j_common_ptr decoder) { (void)decoder; }

static picture_codecs_result decode_jpeg(
    const uint8_t *bytes, size_t count, uint32_t fit_width, uint32_t fit_height, uint32_t max_side, uint64_t max_pixels,
    picture_codecs_pixels *out) {
    struct jpeg_decompress_struct decoder;
    struct jpeg_failure failure;
    uint8_t *volatile rgb = NULL;
    volatile picture_codecs_result result = PICTURE_CODECS_DAMAGED;
    decoder.err = jpeg_std_error(&failure.manager);
    failure.manager.error_exit = jpeg_failed;
    failure.manager.output_message = jpeg_quiet;
    if (setjmp(failure.back)) {
        jpeg_destroy_decompress(&decoder);
        free(rgb);
        return result;
    }
    jpeg_create_decompress(&decoder);
    jpeg_mem_src(&decoder, bytes, (unsigned long)count);
    jpeg_read_header(&decoder, TRUE);
    decoder.out_color_space = JCS_RGB;
    decoder.scale_num = 1;
    decoder.scale_denom = 1;
    while (decoder.scale_denom < 8 && decoder.image_width / (decoder.scale_denom * 2) >= fit_width
           && decoder.image_height / (decoder.scale_denom * 2) >= fit_height) {
        decoder.scale_denom *= 2;
    }
    jpeg_calc_output_dimensions(&decoder);
    if (!fits(decoder.output_width, decoder.output_height, max_side, max_pixels)) {
        result = PICTURE_CODECS_TOO_LARGE;
        jpeg_failed((j_common_ptr)&decoder);
    }
    jpeg_start_decompress(&decoder);
    size_t stride = (size_t)decoder.output_width * 3;
    rgb = malloc(stride * decoder.output_height);
    if (rgb == NULL) {
        result = PICTURE_CODECS_TOO_LARGE;
        jpeg_failed((j_common_ptr)&decoder);
    }
    while (decoder.output_scanline < decoder.output_height) {
        JSAMPROW row = rgb + stride * decoder.output_scanline;
        jpeg_read_scanlines(&decoder, &row, 1);
    }
    jpeg_finish_decompress(&decoder);
    out->rgb = rgb;
    out->width = decoder.output_width;
    out->height = decoder.output_height;
    jpeg_destroy_decompress(&decoder);
    return PICTURE_CODECS_OK;
}

picture_codecs_result picture_codecs_decode(
    const uint8_t *bytes, size_t count, uint32_t fit_width, uint32_t fit_height, uint32_t max_side, uint64_t max_pixels,
    picture_codecs_pixels *out) {
    static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memset(out, 0, sizeof *out);
    if (count >= 8 && memcmp(bytes, png_signature, 8) == 0) return decode_png(bytes, count, max_side, max_pixels, out);
    if (count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) {
        return decode_jpeg(bytes, count, fit_width, fit_height, max_side, max_pixels, out);
    }
    return PICTURE_CODECS_UNKNOWN_FORMAT;
}

void picture_codecs_free(picture_codecs_pixels *pixels) {
    free(pixels->rgb);
    pixels->rgb = NULL;
}
