"""The password hasher of the test run: PBKDF2 (the site's own algorithm, so stored hashes look as in
production) with one iteration. Production's 1,000,000 iterations cost ~0.3 s of CPU for every account a
test creates or signs in with a password; hundreds of tests do."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class OneIterationPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
