import REPLKit

/// The way a terminal draws pictures, learnt by asking it when the full-screen UI starts: kitty's
/// graphics protocol (kitty, WezTerm, Konsole, Ghostty answer its query `OK`), else sixel (xterm
/// with it, foot, mlterm, WezTerm: 4 among the device attributes), else none, and a picture is
/// only its line (`[#1 moth.png, image/png, 12 KiB]`). The device attributes come last, as
/// every terminal answers them: they end the asking.
public enum TerminalGraphics: String, Equatable, Sendable {
    case kitty, sixel

    /// What the UI asks: a kitty graphics query of a 1×1 picture (id 31), the cell's size in
    /// pixels, and the device attributes.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[16t" + "\u{1B}[c"

    /// What the terminal's replies so far tell.
    public struct Detection: Equatable, Sendable {
        /// The way found, once the asking has ended (`nil` then: none).
        public private(set) var graphics: TerminalGraphics?
        /// Whether the asking has ended.
        public private(set) var isDone = false
        /// The cell's size, as the terminal said or the usual one.
        public private(set) var cell = CellSize.usual
        private var kittySaidOK = false

        /// Nothing asked yet; the cell's size `cell` where the terminal told it otherwise (its
        /// window size in pixels), else the usual one until it answers.
        public init(cell: CellSize? = nil) { self.cell = cell ?? .usual }

        /// Decided without asking (`tui.pictures`): `graphics`, or none.
        public init(fixed graphics: TerminalGraphics?, cell: CellSize?) {
            self.graphics = graphics
            self.cell = cell ?? .usual
            isDone = true
        }

        /// Takes one reply.
        public mutating func take(_ reply: TerminalReply) {
            switch reply {
            case .graphics(let ok): kittySaidOK = kittySaidOK || ok
            case .cellSize(let width, let height): cell = CellSize(width: width, height: height)
            case .deviceAttributes(let attributes):
                guard !isDone else { return }
                isDone = true
                graphics = kittySaidOK ? .kitty : attributes.dropFirst().contains(4) ? .sixel : nil
            }
        }
    }
}
