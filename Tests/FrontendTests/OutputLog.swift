/// Text a fake terminal has printed, and a way to wait until some text appears, without polling.
@MainActor
final class OutputLog {
    private(set) var text = ""
    private var waiters: [(id: Int, text: String, after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextID = 0

    /// Adds printed text; wakes whoever waits for something it completes.
    func append(_ printed: String) {
        text += printed
        let ready = waiters.filter { text(after: $0.after).contains($0.text) }
        waiters.removeAll { text(after: $0.after).contains($0.text) }
        ready.forEach { $0.continuation.resume() }
    }

    /// Where the text printed so far ends, for `waitFor(_:after:)`.
    var mark: Int { text.utf8.count }

    private func text(after mark: Int) -> Substring { Substring(text.utf8.dropFirst(mark)) }

    /// Forgets what was printed.
    func clear() { text = "" }

    /// Waits until `expected` has been printed (after `mark`), or until the waiting task is cancelled (a test
    /// past its time limit), so that text that never comes fails the test rather than hanging
    /// the whole run.
    func waitFor(_ expected: String, after mark: Int = 0) async {
        if text(after: mark).contains(expected) { return }
        let id = nextID
        nextID += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiters.append((id, expected, mark, $0)) }
        } onCancel: {
            Task { @MainActor in self.stopWaiting(id) }
        }
    }

    private func stopWaiting(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume()
    }
}
