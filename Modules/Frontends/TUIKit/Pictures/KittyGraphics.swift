import Foundation

/// The escape sequences of kitty's graphics protocol the full-screen UI sends: a picture sent
/// once under an id, then placed (or moved, or cut to the rows shown) by that id and removed.
/// Every one asks for no answer (`q=2`), so that nothing comes back among the keys.
enum KittyGraphics {
    /// Sends `picture` under `id`: its pixels as 24-bit RGB, base64 in chunks of 4,096 bytes.
    static func transmit(_ picture: Picture, id: Int) -> String {
        let data = Data(picture.rgb).base64EncodedString()
        var chunks: [Substring] = []
        var start = data.startIndex
        while start < data.endIndex {
            let end = data.index(start, offsetBy: 4_096, limitedBy: data.endIndex) ?? data.endIndex
            chunks.append(data[start..<end])
            start = end
        }
        return chunks.enumerated().map { number, chunk in
            let more = number < chunks.count - 1 ? 1 : 0
            let keys = number == 0 ? "a=t,f=24,s=\(picture.width),v=\(picture.height),i=\(id),q=2,m=\(more)" : "m=\(more),q=2"
            return "\u{1B}_G" + keys + ";" + chunk + "\u{1B}\\"
        }.joined()
    }

    /// Places picture `id` at the cursor, its cell rows `rows` only, leaving the cursor where it
    /// is; placed again, it moves.
    static func place(_ picture: Picture, id: Int, rows: Range<Int>) -> String {
        let pixels = picture.pixelRows(of: rows)
        return "\u{1B}_Ga=p,i=\(id),p=1,x=0,y=\(pixels.lowerBound),w=\(picture.width),h=\(pixels.count),C=1,q=2\u{1B}\\"
    }

    /// Takes picture `id` off the screen; with `forget`, the terminal frees its pixels too.
    static func remove(id: Int, forget: Bool) -> String { "\u{1B}_Ga=d,d=\(forget ? "I" : "i"),i=\(id),q=2\u{1B}\\" }
}
