package formats

// CheckLastModTimeForTest exposes checkLastModTime to the external tests.
var CheckLastModTimeForTest = checkLastModTime
