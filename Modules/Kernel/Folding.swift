import Foundation

/// How text is compared when people look for it (a search's words, a name after `@`): whatever
/// its case, accents and width, the same way in every feature.
public enum Folding {
    /// `text` folded. ASCII text is only lower-cased, without Foundation.
    public static func fold(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }
}
