"""Other apps' exports (KeepWiz, Escalier): told by content, read a game at a time, their links bounded."""
