"""What tests share beyond one directory's conftest: ``waits`` (waiting on a process or a
page), ``servers`` (test servers, and the ``postgres``/``redis`` fixtures tests/conftest.py
offers), ``accounts`` (accounts made through the ORM, sign-up and log-in in the browser),
``lobby`` (the home page's new-table form in a browser) and ``rulesets`` (throw-away rule
sets for the plug-in tests). Import them (docs/testing.md)."""
