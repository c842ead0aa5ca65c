"""The live board of each table (issue 19): one message that always shows the table's state.

``render`` draws it from the store; ``updater`` keeps each board's message current.
"""
