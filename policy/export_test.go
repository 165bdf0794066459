package policy

// CodeSentence is codeSentence, for the tests of package policy_test.
var CodeSentence = codeSentence
