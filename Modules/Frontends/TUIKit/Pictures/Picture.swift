import Kernel
import PictureCodecs

/// A picture as the full-screen UI draws it: pixels (three bytes a pixel, rows top first) scaled
/// to whole character cells, `columns` × `rows` of them. Decoded from a PNG, JPEG, GIF or WebP file that
/// someone sent, so every size is bounded before anything is allocated.
public struct Picture: Equatable, Sendable {
    /// The most cells a picture takes: wider or taller ones are scaled down to fit.
    public static let maxColumns = 40, maxRows = 12
    /// The largest file drawn inline; a larger one shows only its line (`/open` shows it).
    public static let maxFileBytes = 10 * 1024 * 1024
    /// The most pixels decoded: a PNG claiming more (a decompression bomb) is refused first.
    static let maxSide: UInt32 = 16_384, maxPixels: UInt64 = 24_000_000

    /// Its size in pixels: whole cells of `cell`.
    public let width: Int, height: Int
    /// Its size in cells.
    public let columns: Int, rows: Int
    /// Red, green and blue of each pixel, row after row.
    public let rgb: [UInt8]

    /// The pixel rows of its cell rows `rows`: what a terminal is sent to show only those.
    func pixelRows(of rows: Range<Int>) -> Range<Int> {
        let cellHeight = height / max(1, self.rows)
        return rows.lowerBound * cellHeight..<rows.upperBound * cellHeight
    }

    /// The kinds of file drawn: PNG and JPEG, and GIF and WebP where the build has their
    /// libraries (Package.swift, `gifAndWebP`).
    public static let kinds = ["PNG", "JPEG"] + (picture_codecs_draws_gif_and_webp() != 0 ? ["GIF", "WebP"] : [])

    /// Why a file is not drawn.
    public enum Refusal: Error, Equatable, Sendable {
        case notAPicture, tooLarge, damaged

        /// The words the pane shows in its place.
        public var words: String {
            switch self {
            case .notAPicture: "not a \(Picture.kinds.dropLast().joined(separator: ", ")) or \(Picture.kinds.last ?? "")"
            case .tooLarge: "too large to draw"
            case .damaged: "damaged"
            }
        }
    }

    /// The picture in `bytes` (PNG, JPEG, GIF or WebP, known by its first bytes, not by the type it was sent
    /// with), scaled down to fit `maxColumns` × `maxRows` cells of `cell` pixels and at most
    /// `columns` wide, never up; aspect kept to the nearest whole cell.
    public static func decode(_ bytes: [UInt8], cell: CellSize, columns: Int) throws(Refusal) -> Picture {
        let fit = (width: UInt32(maxColumns * cell.width), height: UInt32(maxRows * cell.height))
        var pixels = picture_codecs_pixels()
        let result = bytes.withUnsafeBufferPointer {
            picture_codecs_decode($0.baseAddress, $0.count, fit.width, fit.height, maxSide, maxPixels, &pixels)
        }
        defer { picture_codecs_free(&pixels) }
        switch result {
        case PICTURE_CODECS_OK: break
        case PICTURE_CODECS_UNKNOWN_FORMAT: throw .notAPicture
        case PICTURE_CODECS_TOO_LARGE: throw .tooLarge
        default: throw .damaged
        }
        let source = (width: Int(pixels.width), height: Int(pixels.height))
        let scale = min(
            1, Double(min(maxColumns, max(1, columns)) * cell.width) / Double(source.width), Double(maxRows * cell.height) / Double(source.height))
        let columns = max(1, Int((Double(source.width) * scale / Double(cell.width)).rounded()))
        let rows = max(1, Int((Double(source.height) * scale / Double(cell.height)).rounded()))
        let rgb = UnsafeBufferPointer(start: pixels.rgb, count: source.width * source.height * 3)
        return Picture(columns: columns, rows: rows, cell: cell, scaling: rgb, width: source.width, height: source.height)
    }

    /// `source` (`width` × `height` pixels) scaled to `columns` × `rows` cells: each pixel the
    /// average of those it covers (the nearest one where it covers less than one).
    init(columns: Int, rows: Int, cell: CellSize, scaling source: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        self.columns = columns
        self.rows = rows
        self.width = columns * cell.width
        self.height = rows * cell.height
        var rgb = [UInt8](repeating: 0, count: self.width * self.height * 3)
        for y in 0..<self.height {
            let top = y * height / self.height, bottom = max(top + 1, (y + 1) * height / self.height)
            for x in 0..<self.width {
                let left = x * width / self.width, right = max(left + 1, (x + 1) * width / self.width)
                var sum = (0, 0, 0)
                for sy in top..<bottom {
                    for sx in left..<right {
                        let at = (sy * width + sx) * 3
                        sum = (sum.0 + Int(source[at]), sum.1 + Int(source[at + 1]), sum.2 + Int(source[at + 2]))
                    }
                }
                let count = (bottom - top) * (right - left), at = (y * self.width + x) * 3
                rgb[at] = UInt8(sum.0 / count)
                rgb[at + 1] = UInt8(sum.1 / count)
                rgb[at + 2] = UInt8(sum.2 / count)
            }
        }
        self.rgb = rgb
    }
}

/// The size of a terminal's character cell in pixels: what a picture is scaled to whole cells of.
public struct CellSize: Equatable, Sendable {
    public let width: Int, height: Int

    /// A cell of `width` × `height` pixels, kept within 1…64 and 1…128 whatever a terminal says.
    public init(width: Int, height: Int) {
        self.width = min(64, max(1, width))
        self.height = min(128, max(1, height))
    }

    /// Most terminals' cell at their usual font size, for one that does not say.
    public static let usual = CellSize(width: 10, height: 20)
}
