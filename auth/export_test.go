package auth

// SetTestHook lets a test stop a write at a named point ("refresh-exchange",
// "between-writes").
func SetTestHook(f func(point string)) { testHook = f }
