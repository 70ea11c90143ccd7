/// Where the memory backend's features record the `StoreChange`s they make, so that they take
/// their place in the one stream of events beside messages. (The SQLite features write theirs
/// in the same transaction as the change, through `SQLChangeLog`.)
public protocol ChangeJournal: Sendable {
    /// Records a change that has just been made, seen by `audience` (decided now, never later).
    func record(_ change: StoreChange, audience: [UserID]) async
}
