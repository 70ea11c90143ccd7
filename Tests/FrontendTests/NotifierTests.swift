import CLIKit
import Foundation
import Kernel
import Testing

/// What the terminal is sent for a notice: the exact bytes of each style, with others' words
/// unable to end the sequence or start one.
@Suite("Notifier")
struct NotifierTests {
    func notice(sender: String = "Bob", conversation: String = "Bob", text: String = "lunch?") -> Notice {
        Notice(
            reason: "direct", conversationID: ConversationID("c1"), conversation: conversation, messageID: MessageID("m1"),
            senderID: UserID("u-bob"), sender: sender, text: text, sentAt: Date(timeIntervalSince1970: 1))
    }

    @Test("each style's exact bytes, and an OSC passed through tmux")
    func bytes() {
        let plain = notice(), group = notice(conversation: "Engine room")
        #expect(Notifier.terminalBytes(for: plain, style: .bell, inTmux: false) == "\u{7}")
        #expect(Notifier.terminalBytes(for: plain, style: .off, inTmux: false) == "")
        #expect(Notifier.terminalBytes(for: plain, style: .osc9, inTmux: false) == "\u{1B}]9;Bob: lunch?\u{1B}\\")
        #expect(Notifier.terminalBytes(for: group, style: .osc777, inTmux: false) == "\u{1B}]777;notify;Bob in Engine room;lunch?\u{1B}\\")
        #expect(Notifier.terminalBytes(for: plain, style: .osc99, inTmux: false) == "\u{1B}]99;;Bob: lunch?\u{1B}\\")
        #expect(Notifier.terminalBytes(for: plain, style: .osc9, inTmux: true) == "\u{1B}Ptmux;\u{1B}\u{1B}]9;Bob: lunch?\u{1B}\u{1B}\\\u{1B}\\")
        #expect(Notifier.terminalBytes(for: plain, style: .bell, inTmux: true) == "\u{7}")
    }

    @Test("others' words cannot end the sequence early or start one", arguments: Notifier.Style.allCases)
    func hostile(style: Notifier.Style) {
        let evil = ["\u{1B}\\", "\u{7}", "\u{9C}", "\u{1B}]0;owned\u{7}", "\u{1B}[2J", "\n", "\u{202E}", "\u{9D}"].joined(separator: "x")
        let bytes = Notifier.terminalBytes(for: notice(sender: "Eve\u{1B}\\", conversation: "G;r\u{7}", text: evil), style: style, inTmux: false)
        // Our own sequence may hold ESC twice (its start and its end) and BEL only as the bell.
        let escapes = bytes.unicodeScalars.filter { $0 == "\u{1B}" }.count
        #expect(escapes == (bytes.isEmpty || bytes == "\u{7}" ? 0 : 2), "\(bytes.debugDescription)")
        #expect(!bytes.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0 == "\n" || $0 == "\u{202E}" })
        #expect(bytes == "\u{7}" || !bytes.contains("\u{7}"))
        if style == .osc777 { #expect(bytes.hasPrefix("\u{1B}]777;notify;Eve \\ in G,r ;"), "\(bytes.debugDescription)") }
    }

    @Test("auto picks the terminal's own notifications where it has them, else the bell")
    func auto() {
        #expect(Notifier.Style.auto.resolved(environment: ["TERM": "xterm-kitty"]) == .osc99)
        #expect(Notifier.Style.auto.resolved(environment: ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .osc9)
        #expect(Notifier.Style.auto.resolved(environment: ["TERM": "xterm-256color", "VTE_VERSION": "7006"]) == .osc777)
        #expect(Notifier.Style.auto.resolved(environment: ["TERM": "screen", "TMUX": "/tmp/t"]) == .bell)
        #expect(Notifier.Style.osc9.resolved(environment: ["TERM": "xterm-kitty"]) == .osc9, "a style chosen is kept")
    }

    @Test("the JSON a command and `messageai notify` get: version 1, every field")
    func json() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(notice().json.utf8)) as? [String: Any])
        #expect(object["v"] as? Int == 1 && object["reason"] as? String == "direct" && object["sentAt"] as? Int == 1_000)
        #expect(Set(object.keys) == ["v", "reason", "conversationID", "conversation", "messageID", "senderID", "sender", "text", "sentAt"])
    }
}
