import Chat
import Kernel
import Testing

@Suite("Reply quotes")
struct ReplyQuoteTests {
    static let accent = "\u{301}"

    @Test(
        "a quote is the text's first whole characters, at most 80 and 320 bytes",
        arguments: [
            (String(repeating: "a", count: 100), String(repeating: "a", count: 80)),
            (String(repeating: "😀", count: 81), String(repeating: "😀", count: 80)),
            (String(repeating: "e" + accent, count: 200), String(repeating: "e" + accent, count: 80)),
            // A character of 199 bytes, then one that would pass 320: one character.
            (String(repeating: "a" + String(repeating: accent, count: 99), count: 80), "a" + String(repeating: accent, count: 99)),
            // A first character over 320 bytes: nothing whole to quote.
            ("a" + String(repeating: accent, count: 4_000), ""),
            ("ab" + String(repeating: accent, count: 4_000), "a"),
            ("short", "short"),
            ("", ""),
        ])
    func quote(text: String, quoted: String) {
        let reply = Message.Reply(id: MessageID("m-1"), text: text, deleted: false)
        #expect(reply.quote == quoted)
        #expect(reply.quote.utf8.count <= Message.Reply.quoteBytes && reply.quote.count <= Message.Reply.quoteLength)
    }
}
