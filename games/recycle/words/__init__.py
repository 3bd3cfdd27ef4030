"""What a person reads and sees: the rules text, each form said in English, the trick rules found,
choices' words, the program's names as words, how a card of any deck is drawn and the places' order.
"""
