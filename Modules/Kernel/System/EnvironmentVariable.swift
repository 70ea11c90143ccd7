/// How a configuration key is spelled in the environment, the same for both executables and as
/// swift-configuration's environment provider reads it: the prefix, then the key's parts in
/// capitals joined by underscores, a part split where a capital follows a small letter
/// (`auth.bcryptCost` → `MESSAGEAI_AUTH_BCRYPT_COST`). Shown by `--help`, and used to say which
/// variables of a prefix name no setting, so that a typo never falls back to a default unseen.
public enum EnvironmentVariable {
    /// The variable `key` is read from.
    public static func name(of key: String, prefix: String) -> String {
        prefix
            + key.split(separator: ".").map { part in
                var spelled = ""
                var previous: Character?
                for character in part {
                    if let previous, previous.isLowercase, character.isUppercase { spelled += "_" }
                    spelled += character.isLetter || character.isNumber ? character.uppercased() : "_"
                    previous = character
                }
                return spelled
            }.joined(separator: "_")
    }

    /// A variable that starts with a prefix and names no setting.
    public struct Unknown: Equatable, Sendable {
        /// Its name.
        public let name: String
        /// The setting's variable it looks like (the same letters, other underscores), if any.
        public let suggestion: String?

        /// A variable `name`, maybe meant as `suggestion`.
        public init(name: String, suggestion: String?) {
            self.name = name
            self.suggestion = suggestion
        }

        /// One line for people: the variable is ignored, and what it may have meant.
        public var warning: String {
            "\(name) names no setting and is ignored" + (suggestion.map { "; did you mean \($0)?" } ?? "")
        }
    }

    /// The variables of `environment` that start with `prefix` and are none of `known` nor
    /// start with one of `otherPrefixes` (another program's), sorted by name.
    public static func unknown(
        in environment: [String: String], prefix: String, known: Set<String>,
        otherPrefixes: [String] = []
    ) -> [Unknown] {
        let byLetters = Dictionary(known.map { (letters($0), $0) }, uniquingKeysWith: { first, _ in first })
        return environment.keys.sorted().compactMap { name in
            guard name.hasPrefix(prefix), !known.contains(name), !otherPrefixes.contains(where: name.hasPrefix) else { return nil }
            return Unknown(name: name, suggestion: byLetters[letters(name)])
        }
    }

    /// `name` without its underscores, in capitals: how two spellings of one word compare.
    private static func letters(_ name: String) -> String { name.uppercased().filter { $0 != "_" } }
}
