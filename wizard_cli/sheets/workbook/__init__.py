"""Workbooks (.xlsx .xlsm .xls .ods): read in a fenced child process through python-calamine."""
