import Kernel

extension CLIContext {
    /// Reads a password: one line of standard input with `--password-stdin`, otherwise from the
    /// terminal without echo. Passwords are never taken from arguments.
    /// - Throws: `.usage` when there is no terminal and no `--password-stdin`.
    public func readPassword(fromStdin: Bool, prompt: String = "Password: ") throws -> String {
        let password =
            if fromStdin {
                try console.readLine()
            } else if console.isInteractive {
                console.readSecret(prompt: prompt)
            } else {
                throw AppError(.usage, "no terminal to read the password from; pipe it in and add --password-stdin")
            }
        guard let password else { throw AppError(.invalidInput, "no password given") }
        return password
    }

    /// Reads a password to be set: as `readPassword`, and on a terminal a second time, since
    /// a typo nobody saw would lock the person out of the account.
    /// - Throws: `.invalidInput` when the two differ.
    public func readNewPassword(fromStdin: Bool, prompt: String = "Password: ") throws -> String {
        let password = try readPassword(fromStdin: fromStdin, prompt: prompt)
        guard !fromStdin else { return password }
        guard try readPassword(fromStdin: false, prompt: PasswordPrompt.again(prompt)) == password else { throw PasswordPrompt.mismatch }
        return password
    }
}

/// What asking twice for a new password says, the same in the CLI and the REPL.
public enum PasswordPrompt {
    /// The second prompt for `prompt` ("Password: " → "Password again: ").
    public static func again(_ prompt: String) -> String {
        let stem = prompt.hasSuffix(": ") ? String(prompt.dropLast(2)) : prompt
        return stem + " again: "
    }

    /// The two passwords typed differ.
    public static let mismatch = AppError(.invalidInput, "the two passwords typed differ; nothing was changed")
}
