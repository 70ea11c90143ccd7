/// Writes a picture as sixel graphics (DEC's, as xterm, foot and mlterm draw them): the colours
/// reduced to a 6×6×6 cube (216 of a terminal's 256 registers), six pixel rows a band, each
/// colour's pixels of a band in one pass, runs of the same sixel counted (`!12~`).
enum SixelEncoder {
    /// The sixel sequence for the cell rows `rows` of `picture`, to be written with the cursor at
    /// the top left cell it goes in.
    static func encode(_ picture: Picture, rows: Range<Int>) -> String {
        let pixels = picture.pixelRows(of: rows)
        let top = pixels.lowerBound, height = pixels.count, width = picture.width
        var indices = [UInt8](repeating: 0, count: width * height)
        var used = Set<UInt8>()
        for y in 0..<height {
            for x in 0..<width {
                let at = ((top + y) * width + x) * 3
                let index = UInt8(level(picture.rgb[at]) * 36 + level(picture.rgb[at + 1]) * 6 + level(picture.rgb[at + 2]))
                indices[y * width + x] = index
                used.insert(index)
            }
        }
        var out = "\u{1B}P0;1q\"1;1;\(width);\(height)"
        for index in used.sorted() {
            let value = Int(index)
            out += "#\(index);2;\(value / 36 * 20);\(value / 6 % 6 * 20);\(value % 6 * 20)"
        }
        for band in stride(from: 0, to: height, by: 6) {
            let bandRows = min(6, height - band)
            var colors: [UInt8: [UInt8]] = [:]
            for x in 0..<width {
                for row in 0..<bandRows {
                    let index = indices[(band + row) * width + x]
                    colors[index, default: [UInt8](repeating: 0, count: width)][x] |= 1 << row
                }
            }
            out += colors.keys.sorted().map { "#\($0)" + runs(of: colors[$0] ?? []) }.joined(separator: "$") + "-"
        }
        return out + "\u{1B}\\"
    }

    /// A colour channel's step in the cube, 0…5.
    private static func level(_ value: UInt8) -> Int { (Int(value) * 5 + 127) / 255 }

    /// A colour's sixels along a band (bit n: the pixel n rows down), runs of four or more counted.
    private static func runs(of sixels: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < sixels.count {
            var end = index + 1
            while end < sixels.count, sixels[end] == sixels[index] { end += 1 }
            let character = Character(Unicode.Scalar(63 + sixels[index]))
            out += end - index >= 4 ? "!\(end - index)\(character)" : String(repeating: character, count: end - index)
            index = end
        }
        return out
    }
}
