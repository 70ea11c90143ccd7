/// Lets a reader's events through once each, in cursor order: an event whose cursor does not
/// follow the last one let through was given already (it came both in a catch-up page and live)
/// and is held back. What a resuming reader puts between the store's pages and the live feed.
public struct CursorGate: Sendable {
    /// What becomes of an event at the gate.
    public enum Verdict: Sendable, Equatable {
        /// New: give it to the reader.
        case pass
        /// Given already: drop it.
        case repeated
        /// Of another epoch of the store (it was replaced): the reader must start over.
        case otherEpoch
    }

    /// The cursor of the last event let through (or the one the reader resumed after).
    public private(set) var last: EventCursor?

    /// A gate for a reader that has seen everything up to `last` (`nil`: nothing yet).
    public init(after last: EventCursor?) { self.last = last }

    /// Judges the event with `cursor`; an event without one always passes.
    public mutating func admit(_ cursor: EventCursor?) -> Verdict {
        guard let cursor else { return .pass }
        guard let last else {
            self.last = cursor
            return .pass
        }
        guard cursor.epoch == last.epoch else { return .otherEpoch }
        guard cursor.follows(last) else { return .repeated }
        self.last = cursor
        return .pass
    }
}
