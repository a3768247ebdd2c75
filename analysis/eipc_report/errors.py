"""Bad input: the message names the file, the field and the problem (exit code 2)."""


class InputError(Exception):
    pass
