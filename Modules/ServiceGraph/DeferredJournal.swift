import Kernel

/// The memory backend's change journal (Chat's store), handed to the stores made before it.
struct DeferredJournal: ChangeJournal {
    let journal = Deferred<any ChangeJournal>()

    func record(_ change: StoreChange, audience: [UserID]) async {
        try? await journal.get().record(change, audience: audience)
    }
}
