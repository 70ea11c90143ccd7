// Decoding of the pictures the full-screen UI draws, over libpng's simplified API, libjpeg,
// giflib and libwebp. libjpeg reports errors by calling a function that must not return, so the
// decoder jumps back with longjmp: that is why this is C and not Swift.
#include "PictureCodecs.h"

// jpeglib.h needs stdio.h's FILE before it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>
#include <setjmp.h>

// Defined by the manifest where giflib's and libwebp's headers are (Package.swift, `gifAndWebP`).
#ifdef PICTURE_CODECS_GIF_WEBP
#include <gif_lib.h>
#include <webp/decode.h>
#include <webp/demux.h>
#endif

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

#ifdef PICTURE_CODECS_GIF_WEBP
// giflib reads through this: the bytes left of a GIF file in memory.
struct gif_source {
    const uint8_t *bytes;
    size_t left;
};

static int gif_read(GifFileType *file, GifByteType *into, int wanted) {
    struct gif_source *source = file->UserData;
    size_t count = wanted < 0 ? 0 : (size_t)wanted;
    if (count > source->left) count = source->left;
    memcpy(into, source->bytes, count);
    source->bytes += count;
    source->left -= count;
    return (int)count;
}

// A GIF's first frame on its logical screen, laid on black where it is transparent or leaves the
// screen uncovered; a frame reaching past the screen is cut to it. Later frames are not read.
static picture_codecs_result decode_gif(
    const uint8_t *bytes, size_t count, uint32_t max_side, uint64_t max_pixels, picture_codecs_pixels *out) {
    struct gif_source source = {bytes, count};
    int error = 0;
    GifFileType *file = DGifOpen(&source, gif_read, &error);
    if (file == NULL) return PICTURE_CODECS_DAMAGED;
    picture_codecs_result result = PICTURE_CODECS_DAMAGED;
    uint8_t *rgb = NULL, *line = NULL;
    int transparent = -1;
    if (file->SWidth <= 0 || file->SHeight <= 0 || !fits((uint32_t)file->SWidth, (uint32_t)file->SHeight, max_side, max_pixels)) {
        result = PICTURE_CODECS_TOO_LARGE;
        goto done;
    }
    const size_t width = (size_t)file->SWidth, height = (size_t)file->SHeight;
    for (;;) {
        GifRecordType record;
        if (DGifGetRecordType(file, &record) == GIF_ERROR || record == TERMINATE_RECORD_TYPE) goto done;
        if (record == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(file, &code, &block) == GIF_ERROR) goto done;
            GraphicsControlBlock control;
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && DGifExtensionToGCB(block[0], block + 1, &control) == GIF_OK) {
                transparent = control.TransparentColor;
            }
            while (block != NULL) {
                if (DGifGetExtensionNext(file, &block) == GIF_ERROR) goto done;
            }
            continue;
        }
        if (record != IMAGE_DESC_RECORD_TYPE || DGifGetImageDesc(file) == GIF_ERROR) goto done;
        const GifImageDesc *frame = &file->Image;
        const ColorMapObject *colors = frame->ColorMap != NULL ? frame->ColorMap : file->SColorMap;
        if (colors == NULL || frame->Width <= 0 || frame->Height <= 0 || frame->Left < 0 || frame->Top < 0
            || (uint32_t)frame->Width > max_side || (uint32_t)frame->Height > max_side) {
            goto done;
        }
        rgb = calloc(width * height, 3);
        line = malloc((size_t)frame->Width);
        if (rgb == NULL || line == NULL) {
            result = PICTURE_CODECS_TOO_LARGE;
            goto done;
        }
        // An interlaced frame comes in four passes: every 8th row from 0, from 4, every 4th from
        // 2, every 2nd from 1.
        static const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
        const int passes = frame->Interlace ? 4 : 1;
        for (int pass = 0; pass < passes; pass++) {
            const int start = frame->Interlace ? starts[pass] : 0, step = frame->Interlace ? steps[pass] : 1;
            for (int row = start; row < frame->Height; row += step) {
                if (DGifGetLine(file, line, frame->Width) == GIF_ERROR) goto done;
                const size_t y = (size_t)frame->Top + (size_t)row;
                if (y >= height) continue;
                for (int column = 0; column < frame->Width; column++) {
                    const size_t x = (size_t)frame->Left + (size_t)column;
                    if (x >= width || line[column] == transparent || line[column] >= colors->ColorCount) continue;
                    const GifColorType colour = colors->Colors[line[column]];
                    uint8_t *pixel = rgb + (y * width + x) * 3;
                    pixel[0] = colour.Red;
                    pixel[1] = colour.Green;
                    pixel[2] = colour.Blue;
                }
            }
        }
        out->rgb = rgb;
        out->width = (uint32_t)width;
        out->height = (uint32_t)height;
        rgb = NULL;
        result = PICTURE_CODECS_OK;
        goto done;
    }
done:
    free(line);
    free(rgb);
    DGifCloseFile(file, &error);
    return result;
}

// A WebP picture, or an animated one's first frame, laid on black where it is transparent. Its
// size is read from its header and checked before anything is decoded: the animation decoder
// allocates two canvases of that size as it is made.
static picture_codecs_result decode_webp(
    const uint8_t *bytes, size_t count, uint32_t max_side, uint64_t max_pixels, picture_codecs_pixels *out) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(bytes, count, &features) != VP8_STATUS_OK) return PICTURE_CODECS_DAMAGED;
    if (features.width <= 0 || features.height <= 0 || !fits((uint32_t)features.width, (uint32_t)features.height, max_side, max_pixels)) {
        return PICTURE_CODECS_TOO_LARGE;
    }
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return PICTURE_CODECS_DAMAGED;
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    const WebPData data = {bytes, count};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&data, &options);
    if (decoder == NULL) return PICTURE_CODECS_DAMAGED;
    picture_codecs_result result = PICTURE_CODECS_DAMAGED;
    WebPAnimInfo info;
    uint8_t *rgba = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetInfo(decoder, &info) || info.canvas_width != (uint32_t)features.width
        || info.canvas_height != (uint32_t)features.height || !WebPAnimDecoderGetNext(decoder, &rgba, &timestamp)) {
        goto done;
    }
    const size_t pixels = (size_t)info.canvas_width * info.canvas_height;
    uint8_t *rgb = malloc(pixels * 3);
    if (rgb == NULL) {
        result = PICTURE_CODECS_TOO_LARGE;
        goto done;
    }
    for (size_t pixel = 0; pixel < pixels; pixel++) {
        const unsigned alpha = rgba[pixel * 4 + 3];
        for (int channel = 0; channel < 3; channel++) rgb[pixel * 3 + channel] = (uint8_t)(rgba[pixel * 4 + channel] * alpha / 255);
    }
    out->rgb = rgb;
    out->width = info.canvas_width;
    out->height = info.canvas_height;
    result = PICTURE_CODECS_OK;
done:
    WebPAnimDecoderDelete(decoder);
    return result;
}
#endif

int picture_codecs_draws_gif_and_webp(void) {
#ifdef PICTURE_CODECS_GIF_WEBP
    return 1;
#else
    return 0;
#endif
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
#ifdef PICTURE_CODECS_GIF_WEBP
    if (count >= 6 && (memcmp(bytes, "GIF87a", 6) == 0 || memcmp(bytes, "GIF89a", 6) == 0)) {
        return decode_gif(bytes, count, max_side, max_pixels, out);
    }
    if (count >= 12 && memcmp(bytes, "RIFF", 4) == 0 && memcmp(bytes + 8, "WEBP", 4) == 0) {
        return decode_webp(bytes, count, max_side, max_pixels, out);
    }
#endif
    return PICTURE_CODECS_UNKNOWN_FORMAT;
}

void picture_codecs_free(picture_codecs_pixels *pixels) {
    free(pixels->rgb);
    pixels->rgb = NULL;
}
