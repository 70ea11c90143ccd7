import Chat
import Kernel

/// The message a conversation command (`/edit`, `/delete`, `/react`, `/reply`) is about: `#N` at
/// the start of its arguments numbers the recent messages newest first (`/recent`); without it,
/// the user's last message not deleted (or, for a command about anyone's, the last one).
struct MessageTarget {
    /// The message named.
    let message: Message
    /// The arguments after `#N` (all of them without it).
    let rest: String

    /// Why no message is named, as the screen says it.
    struct Refusal: Error {
        let line: String
    }

    /// The message `arguments` names among `recent` (newest first), for a command `doing` what
    /// it does (`edit`, `react to`) to `me`'s messages, or with `anyone` to anyone's.
    static func find(_ arguments: String, among recent: [Message], me: UserID?, anyone: Bool, doing verb: String)
        -> Result<MessageTarget, Refusal>
    {
        let words = arguments.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let first = words.first, first.hasPrefix("#"), let number = Int(first.dropFirst()) else {
            guard let last = recent.first(where: { (anyone || $0.senderID == me) && !$0.deleted }) else {
                return .failure(Refusal(line: "No message \(anyone ? "" : "of yours ")to \(verb) here; /recent numbers the last ones."))
            }
            return .success(MessageTarget(message: last, rest: arguments))
        }
        guard number >= 1, number <= recent.count else {
            return .failure(Refusal(line: "No message #\(number) here; /recent numbers the last \(recent.count)."))
        }
        return .success(MessageTarget(message: recent[number - 1], rest: words.count > 1 ? String(words[1]) : ""))
    }
}
