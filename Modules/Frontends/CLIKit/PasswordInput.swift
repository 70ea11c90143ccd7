import Kernel

extension CLIContext {
    /// Reads a password: one line of standard input with `--password-stdin`, otherwise from the
    /// terminal without echo. Passwords are never taken from arguments.
    /// - Throws: `.usage` when there is no terminal and no `--password-stdin`.
    public func readPassword(fromStdin: Bool, prompt: String = "Password: ") throws -> String {
        let password = if fromStdin {
            try console.readLine()
        } else if console.isInteractive {
            console.readSecret(prompt: prompt)
        } else {
            throw AppError(.usage, "no terminal to read the password from; pipe it in and add --password-stdin")
        }
        guard let password else { throw AppError(.invalidInput, "no password given") }
        return password
    }
}
