import Foundation
import Testing

/// The scenarios that load the machine for a minute or more (a hundred accounts on every backend,
/// hundreds of reactions, a hundred thousand messages): they run in a step of their own, after the
/// suite, so that the suite's timed tests (budgets that refill, rate limits) do not share the
/// machine's two cores with them. CI sets `MESSAGEAI_HEAVY_TESTS=1` for that step.
public let heavyTests: ConditionTrait = .enabled(
    if: ProcessInfo.processInfo.environment["MESSAGEAI_HEAVY_TESTS"] == "1",
    "loads the machine: set MESSAGEAI_HEAVY_TESTS=1 (CI does, after the suite)")
