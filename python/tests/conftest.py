"""Puts python/ on the import path, so that the tests import the package as the scripts do."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
