package kotlin

// JavaRegex exposes the pattern translation to the JVM test, which checks
// it against Go's regexp on the JVM.
var JavaRegex = javaRegex
