package imageref

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Copyable is the image reference a person may paste into a shell
// (docker pull, a PR): the declared repository and tag, parsed and rebuilt
// from their parts. Anything else is refused, saying what is wrong without
// quoting what follows it (a tenant's padding would push the reason out of
// sight).
func Copyable(repository, tag string) (string, error) {
	if err := firstForeign("repository", repository, "._-/:@[]"); err != nil {
		return "", err
	}
	if err := firstForeign("tag", tag, "._-"); err != nil {
		return "", err
	}
	im, err := Parse(repository)
	switch {
	case err != nil:
		return "", fmt.Errorf("the repository is not an image repository: %w", err)
	case im.Tag != "" || im.Digest != "":
		return "", errors.New("the repository holds a tag or digest of its own")
	}
	if err := CheckTag(tag); err != nil {
		return "", err
	}
	im.Tag = tag
	return im.String(), nil
}

// firstForeign names the first character of s that no image reference
// holds, by its position.
func firstForeign(what, s, punct string) error {
	if s == "" {
		return fmt.Errorf("no %s", what)
	}
	n := 0
	for _, r := range s {
		n++
		if r < utf8.RuneSelf && (isLowerAlnum(byte(r)) || r >= 'A' && r <= 'Z' || strings.ContainsRune(punct, r)) {
			continue
		}
		return fmt.Errorf("the %s has %s at character %d, which no image reference holds", what, strconv.QuoteRuneToASCII(r), n)
	}
	return nil
}
