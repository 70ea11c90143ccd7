import Chat
import Foundation
import Kernel
import Synchronization

/// The frames of one reader's events socket: the copy `EventFrames` shares among readers, or one
/// of their own for an event with reactions of theirs or of someone they are apart from
/// (`UserEvent.seen(by:apart:)`). Whom they are apart from is looked up before the socket starts
/// and again, in the background, once known for `apartFor`.
public final class ReaderFrames: Sendable {
    /// How long the people apart from the reader are taken as known: a block counts on an open
    /// socket's live reactions within this (on what it reads, at once).
    public static let apartFor: Duration = .seconds(10)

    private struct Apart {
        /// The people, and when they were looked up; `nil` before the first look.
        var known: (people: Set<UserID>, looked: ContinuousClock.Instant)?
        /// Whether a look-up is under way.
        var looking = false
    }

    private let reader: UserID
    private let frames: EventFrames
    private let peopleApart: @Sendable () async throws -> Set<UserID>
    private let apart = Mutex(Apart())

    /// The frames of `reader`, from `frames` (shared by every socket), who is apart from those
    /// `peopleApart` names.
    public init(reader: UserID, frames: EventFrames, peopleApart: @escaping @Sendable () async throws -> Set<UserID>) {
        self.reader = reader
        self.frames = frames
        self.peopleApart = peopleApart
    }

    /// Looks up the people the reader is apart from; a failed look keeps what was known.
    public func lookApart() async {
        let people = try? await peopleApart()
        apart.withLock { apart in
            apart.looking = false
            if let people { apart.known = (people, .now) }
        }
    }

    /// The frame of `event` as the reader sees it; an event with reactions starts a look-up of
    /// the people apart, for later frames, once they have been known for `apartFor`.
    public func text(of event: UserEvent) -> Data {
        let (people, look) = apart.withLock { apart -> (Set<UserID>, Bool) in
            let stale = apart.known.map { ContinuousClock.now - $0.looked >= Self.apartFor } ?? true
            let look = event.reactions.map { !$0.reactions.isEmpty } == true && !apart.looking && stale
            if look { apart.looking = true }
            return (apart.known?.people ?? [], look)
        }
        if look { Task { await lookApart() } }
        return frames.text(of: event, seenBy: reader, apart: people)
    }
}
